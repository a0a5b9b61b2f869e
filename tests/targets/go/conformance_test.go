// Runs every conformance vector (conformance/vectors.json of a case) against the
// generated Go package: the same file the Python and TypeScript suites run.
// tests/targets/go/test_go.py copies this file into the generated module (as
// conformance/conformance_test.go), with TAXOGEN_GO_MODULE replaced by the
// module path. Env: TAXOGEN_VECTORS (vectors.json). Go has no classes: every
// expectation that names a class also gives the code its error reports, and
// that is what is checked (issue 31 §3). It fails unless it ran every vector.
package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	gen "TAXOGEN_GO_MODULE"
)

type vector struct {
	ID     string          `json:"id"`
	Kind   string          `json:"kind"`
	Input  json.RawMessage `json:"input"`
	Expect map[string]any  `json:"expect"`
	// docs "Schema, vectors and docs": the input as JSON text, for a number
	// Go's own decoding must meet (1e400, 309 or 5,000 digits).
	InputJSON *string `json:"input_json"`
}

type document struct {
	Kinds   map[string]string `json:"kinds"`
	Vectors []vector          `json:"vectors"`
}

func readJSON(t *testing.T, env string, into any) {
	t.Helper()
	data, err := os.ReadFile(os.Getenv(env))
	if err != nil {
		t.Fatalf("%s: %v", env, err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("%s: %v", env, err)
	}
}

// plain is v as encoding/json gives it back (numbers as float64), so that 3 and
// 3.0 compare equal, as JSON says.
func plain(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

func sameJSON(t *testing.T, a, b any) bool {
	return reflect.DeepEqual(plain(t, a), plain(t, b))
}

func decodeNumbers(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("input: %v", err)
	}
	return v
}

// codeText is a code of the vectors as Go holds it (docs "Wire codes"): a
// string as it is, an integer code as its decimal text.
func codeText(v any) string {
	switch code := v.(type) {
	case string:
		return code
	case float64:
		return strconv.FormatFloat(code, 'f', -1, 64)
	case json.Number:
		return code.String()
	}
	return fmt.Sprintf("<not a code: %v>", v)
}

type runner struct {
	t *testing.T
}

// domainOf is the Domain() an expectation's domain means: null (an unknown
// code that keeps its identity, fallback: null) is Go's "", no domain.
func domainOf(want any) string {
	text, _ := want.(string)
	return text
}

// checkCode compares the error's code with the one the expectation gives for
// the class it names.
func (r runner) checkCode(err *gen.Error, expect map[string]any) {
	if string(err.Code) != codeText(expect["code"]) {
		r.t.Errorf("code: got %q, want %v (class %v)", err.Code, expect["code"], expect["class"])
	}
}

// checkMapped compares what the error's code maps to with the vector (README
// "What a code maps to"): a vector that says none expects Go's zero values.
func (r runner) checkMapped(err *gen.Error, expect map[string]any) {
	t := r.t
	status := 0
	if want, ok := expect["http_status"].(float64); ok {
		status = int(want)
	}
	if err.HTTPStatus() != status {
		t.Errorf("HTTPStatus: got %d, want %d", err.HTTPStatus(), status)
	}
	grpc, _ := expect["grpc_status"].(string)
	if err.GRPCStatus() != grpc {
		t.Errorf("GRPCStatus: got %q, want %q", err.GRPCStatus(), grpc)
	}
	throttling, _ := expect["throttling"].(bool)
	if err.Throttling() != throttling {
		t.Errorf("Throttling: got %v, want %v", err.Throttling(), throttling)
	}
	url, _ := expect["doc_url"].(string)
	if err.DocURL() != url {
		t.Errorf("DocURL: got %q, want %q", err.DocURL(), url)
	}
}

func (r runner) checkAccepted(err *gen.Error, expect map[string]any) {
	t := r.t
	r.checkMapped(err, expect)
	r.checkCode(err, expect)
	if string(err.Domain()) != domainOf(expect["domain"]) {
		t.Errorf("domain: got %q, want %v", err.Domain(), expect["domain"])
	}
	if err.Retryable != expect["retryable"] {
		t.Errorf("retryable: got %v, want %v", err.Retryable, expect["retryable"])
	}
	if err.WireCode != codeText(expect["wire_code"]) {
		t.Errorf("wire code: got %q, want %v", err.WireCode, expect["wire_code"])
	}
	data, merr := json.Marshal(err)
	if merr != nil {
		t.Fatalf("MarshalJSON: %v", merr)
	}
	var payload any
	if uerr := json.Unmarshal(data, &payload); uerr != nil {
		t.Fatalf("MarshalJSON gave no JSON: %v", uerr)
	}
	if !sameJSON(t, payload, expect["payload"]) {
		t.Errorf("payload: got %s, want %v", data, expect["payload"])
	}
	// Issue 30 §1: received without its message.
	if want, ok := expect["message"]; ok && (err.Message != want || !err.MessageAbsent) {
		t.Errorf("message: got %q (absent %v), want %v, absent", err.Message, err.MessageAbsent, want)
	}
	// The round trip, and errors.Is / errors.As through a wrapper.
	again, ferr := gen.FromPayload(data)
	if ferr != nil || again.Code != err.Code || again.WireCode != err.WireCode {
		t.Errorf("round trip: got %v, %v", again, ferr)
	}
	wrapped := fmt.Errorf("context: %w", err)
	if !errors.Is(wrapped, &gen.Error{Code: err.Code}) {
		t.Errorf("errors.Is does not match by code")
	}
	var found *gen.Error
	if !errors.As(wrapped, &found) || found != err {
		t.Errorf("errors.As does not find the error")
	}
}

func (r runner) payload(call func([]byte) (*gen.Error, error), v vector) {
	t := r.t
	err, problem := call(v.Input)
	if v.Expect["ok"] == false {
		var invalid *gen.InvalidPayloadError
		if !errors.As(problem, &invalid) {
			t.Fatalf("want an InvalidPayloadError (field %v), got %v, %v", v.Expect["field"], err, problem)
		}
		if invalid.Field != v.Expect["field"] {
			t.Errorf("field: got %q, want %v (%s)", invalid.Field, v.Expect["field"], invalid.Message)
		}
		// Issue 30 §1: a message the same in every language.
		if want, ok := v.Expect["message"]; ok && invalid.Message != want {
			t.Errorf("message: got %q, want %v", invalid.Message, want)
		}
		if err != nil {
			t.Errorf("an error came back with the problem: %v", err)
		}
		return
	}
	if problem != nil {
		t.Fatalf("refused: %v", problem)
	}
	if v.Expect["none"] == true {
		if err != nil {
			t.Errorf("want none, got %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want an error, got none")
	}
	r.checkAccepted(err, v.Expect)
}

func (r runner) run(v vector) {
	t := r.t
	switch v.Kind {
	case "from_payload":
		r.payload(gen.FromPayload, v)
	case "error_from_event":
		r.payload(gen.ErrorFromEvent, v)
	case "lookup":
		code := codeText(decodeNumbers(t, v.Input))
		want := codeText(v.Expect["code"])
		if got := gen.Lookup(code); string(got) != want {
			t.Errorf("Lookup: got %q, want %q (class %v)", got, want, v.Expect["class"])
		}
		if gen.IsRetryable(code) != v.Expect["retryable"] {
			t.Errorf("IsRetryable: got %v", gen.IsRetryable(code))
		}
	case "to_error":
		input := decodeNumbers(t, v.Input)
		err := gen.ToError(input)
		r.checkMapped(err, v.Expect)
		r.checkCode(err, v.Expect)
		if string(err.Domain()) != domainOf(v.Expect["domain"]) || err.Retryable != v.Expect["retryable"] {
			t.Errorf("got %q %q %v", err.Code, err.Domain(), err.Retryable)
		}
		var kept *gen.WrappedValue
		if !errors.As(err, &kept) || !sameJSON(t, kept.Value, input) {
			t.Errorf("the value is not kept: %v", err.Cause)
		}
	case "construct":
		var input struct {
			Code    json.RawMessage `json:"code"`
			Details json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal(v.Input, &input); err != nil {
			t.Fatalf("input: %v", err)
		}
		details, _ := decodeNumbers(t, input.Details).(map[string]any)
		code := codeText(decodeNumbers(t, input.Code))
		err, problem := gen.New(gen.Code(code), details)
		if problem != nil {
			t.Fatalf("New: %v", problem)
		}
		r.checkMapped(err, v.Expect)
		r.checkCode(err, v.Expect)
		if err.Message != v.Expect["message"] {
			t.Errorf("message: got %q, want %v", err.Message, v.Expect["message"])
		}
		if !sameJSON(t, err.Details, v.Expect["details"]) {
			t.Errorf("details: got %v, want %v", err.Details, v.Expect["details"])
		}
	case "retry_after": // issue 30 §8: RetryAfter(), 0 for none
		err, problem := gen.FromPayload(v.Input)
		if problem != nil {
			t.Fatalf("FromPayload: %v", problem)
		}
		r.checkCode(err, v.Expect)
		want := time.Duration(0)
		if seconds, ok := v.Expect["retry_after"].(float64); ok {
			want = time.Duration(seconds * float64(time.Second))
		}
		if err.RetryAfter() != want {
			t.Errorf("RetryAfter: got %v, want %v", err.RetryAfter(), want)
		}
	default:
		t.Fatalf("no runner for kind %q", v.Kind)
	}
}

func TestEveryVector(t *testing.T) {
	var doc document
	readJSON(t, "TAXOGEN_VECTORS", &doc)
	known := map[string]bool{"from_payload": true, "error_from_event": true, "lookup": true, "to_error": true, "construct": true, "retry_after": true}
	for kind := range doc.Kinds {
		if !known[kind] {
			t.Errorf("no runner for kind %q", kind)
		}
	}
	if len(doc.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	ran := 0
	for _, v := range doc.Vectors {
		v := v
		if v.InputJSON != nil {
			if v.Input != nil {
				t.Fatalf("%s: both input and input_json", v.ID)
			}
			v.Input = json.RawMessage(*v.InputJSON)
		}
		t.Run(v.ID, func(t *testing.T) {
			ran++
			runner{t}.run(v)
		})
	}
	if ran != len(doc.Vectors) {
		t.Fatalf("ran %d vectors of the %d the file holds", ran, len(doc.Vectors))
	}
}
