// The Go API of the shipped taxonomy as docs "Go" shows it: typed
// constructors, IsXxxError helpers, errors.Is / errors.As, the wire round trip,
// the fallback and ToError. tests/targets/go/test_go.py copies it into the generated
// module of taxonomy.yaml only (as harmovela/api_test.go).
package harmovela

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func TestTypedConstructorRendersTheTemplate(t *testing.T) {
	err := gen.NewTaskTimeoutError(gen.TaskTimeoutDetails{TaskID: "task_01", TimeoutMs: 300000})
	if err.Message != "task task_01 exceeded the 300000ms deadline" {
		t.Errorf("message: %q", err.Message)
	}
	if err.Code != gen.CodeTaskTimeout || !err.Retryable || err.Domain() != gen.DomainTask {
		t.Errorf("got %q %v %q", err.Code, err.Retryable, err.Domain())
	}
	elapsed := int64(5)
	with := gen.NewTaskTimeoutError(gen.TaskTimeoutDetails{TaskID: "t", TimeoutMs: 1, ElapsedMs: &elapsed})
	if with.Details["elapsed_ms"] != int64(5) {
		t.Errorf("optional field: %v", with.Details)
	}
	if _, ok := err.Details["elapsed_ms"]; ok {
		t.Errorf("an omitted optional field without default is left out: %v", err.Details)
	}
	var back gen.TaskTimeoutDetails
	if e := with.DecodeDetails(&back); e != nil || back.TaskID != "t" || *back.ElapsedMs != 5 {
		t.Errorf("DecodeDetails: %v %+v", e, back)
	}
}

func TestHelpersAndErrorsIsAs(t *testing.T) {
	cause := errors.New("disk full")
	err := gen.NewTaskTimeoutError(gen.TaskTimeoutDetails{TaskID: "t", TimeoutMs: 1}).WithCause(cause)
	wrapped := fmt.Errorf("running: %w", err)
	if !gen.IsTaskTimeoutError(wrapped) || gen.IsProtocolError(wrapped) {
		t.Error("IsXxxError matches by code through wrappers")
	}
	if !errors.Is(wrapped, gen.NewTaskTimeoutError(gen.TaskTimeoutDetails{})) {
		t.Error("errors.Is matches another error of the same code")
	}
	if errors.Is(wrapped, gen.NewProtocolError()) {
		t.Error("errors.Is matched another code")
	}
	if !errors.Is(wrapped, cause) {
		t.Error("Unwrap reaches the cause")
	}
	var found *gen.Error
	if !errors.As(wrapped, &found) || found.Code != gen.CodeTaskTimeout {
		t.Error("errors.As finds the typed error")
	}
	if gen.IsTaskTimeoutError(nil) || gen.IsTaskTimeoutError(cause) {
		t.Error("IsXxxError of nil or a foreign error")
	}
}

func TestUnknownCodeFallsBackAndRoundTrips(t *testing.T) {
	in := `{"code":"brand_new","message":"m","retryable":false,"details":{"n":1}}`
	err, problem := gen.FromPayload([]byte(in))
	if problem != nil {
		t.Fatal(problem)
	}
	if err.Code != gen.CodeProtocol || err.WireCode != "brand_new" || !gen.IsProtocolError(err) {
		t.Errorf("got %q %q", err.Code, err.WireCode)
	}
	out, _ := json.Marshal(err)
	var a, b any
	_ = json.Unmarshal([]byte(in), &a)
	_ = json.Unmarshal(out, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("re-emitted %s", out)
	}
	if gen.Lookup("brand_new") != gen.CodeProtocol || !gen.IsRetryable("task_timeout") {
		t.Error("Lookup / IsRetryable")
	}
}

func TestToErrorWrapsErrorsAndPanics(t *testing.T) {
	cause := errors.New("boom")
	err := gen.ToError(cause)
	if err.Code != gen.CodeInternal || !errors.Is(err, cause) {
		t.Errorf("ToError(error): %v", err)
	}
	if gen.ToError(err) != err {
		t.Error("ToError of an *Error is itself")
	}
	recovered := func() (v any) {
		defer func() { v = recover() }()
		panic("oops")
	}()
	var kept *gen.WrappedValue
	if e := gen.ToError(recovered); !errors.As(e, &kept) || kept.Value != "oops" {
		t.Errorf("ToError(panic value): %v", e)
	}
}

func TestInvalidPayloadNamesTheField(t *testing.T) {
	_, problem := gen.FromPayload([]byte(`{"code":"task_timeout","message":"m","retryable":true,"details":{"task_id":"t","timeout_ms":"soon"}}`))
	var invalid *gen.InvalidPayloadError
	if !errors.As(problem, &invalid) || invalid.Field != "details.timeout_ms" {
		t.Errorf("got %v", problem)
	}
	if len(gen.Events()) == 0 {
		t.Error("the events table is empty")
	}
}
