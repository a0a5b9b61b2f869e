// Unit tests of the Go runtime on its own, against a toy taxonomy: what the
// vectors do not reach (number spelling, the node limit, defaults, nil slices).
// tests/targets/go/test_go.py copies it into internal/taxogen of one generated module.
package taxogen

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func toy() *Taxonomy {
	return NewTaxonomy([]Spec{
		{Code: "toy_error", Domain: "toy", Meaning: "Toy"},
		{Code: "toy_typed", Domain: "toy", Retryable: true, Meaning: "Typed",
			Fields: []Field{
				{Name: "n", Type: "integer", Required: true, Minimum: Float(0)},
				{Name: "tags", Type: "array", Required: true, Items: &Shape{Type: "string"}},
				{Name: "unit", Type: "string", Enum: []string{"s", "ms"}, Default: `"ms"`},
			},
			Template: []Piece{{Text: "n=", Field: "n"}, {Text: " ", Field: "unit"}, {Text: "!"}}},
	}, "toy_error", "toy_error", "^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*)$", nil, nil)
}

// docs "Typed details": numbers are written as JavaScript's String(number).
func TestNumbersAreSpeltAsJavaScriptDoes(t *testing.T) {
	for in, want := range map[float64]string{
		3: "3", 0.5: "0.5", 1e21: "1e+21", 1e20: "100000000000000000000",
		0.000001: "0.000001", 1.5e-7: "1.5e-7", -2.25: "-2.25", 0: "0",
	} {
		if got := jsNumber(in); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestTheNodeLimitCountsEveryValue(t *testing.T) {
	// details {"a": [0, 0, ...]}: the object, the array and n numbers.
	for n, ok := range map[int]bool{MaxDetailsNodes - 2: true, MaxDetailsNodes - 1: false} {
		items := strings.TrimSuffix(strings.Repeat("0,", n), ",")
		payload := `{"code":"toy_error","message":"m","retryable":false,"details":{"a":[` + items + `]}}`
		_, err := FromPayload(toy(), []byte(payload))
		var invalid *InvalidPayloadError
		if ok != (err == nil) || (!ok && (!errors.As(err, &invalid) || invalid.Field != "details")) {
			t.Errorf("%d values in all: got %v", n+2, err)
		}
	}
}

func TestDepthSixtyFourIsAllowed(t *testing.T) {
	nested := func(depth int) string { // the details object is depth 1
		return strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
	}
	for depth, ok := range map[int]bool{MaxDetailsDepth: true, MaxDetailsDepth + 1: false} {
		payload := `{"code":"toy_error","message":"m","retryable":false,"details":` + nested(depth) + `}`
		if _, err := FromPayload(toy(), []byte(payload)); ok != (err == nil) {
			t.Errorf("depth %d: %v", depth, err)
		}
	}
}

func TestBuildFillsDefaultsRendersAndNeverWritesNull(t *testing.T) {
	var tags []string
	e := Build(toy(), "toy_typed", map[string]any{"n": int64(3), "tags": tags})
	if e.Message != "n=3 ms!" {
		t.Errorf("message %q", e.Message)
	}
	data, _ := json.Marshal(e)
	if !strings.Contains(string(data), `"tags":[]`) || !strings.Contains(string(data), `"unit":"ms"`) {
		t.Errorf("payload %s", data)
	}
	if _, err := FromPayload(toy(), data); err != nil {
		t.Errorf("round trip: %v", err)
	}
}

func TestNewChecksFieldsAsFromPayloadDoes(t *testing.T) {
	for details, field := range map[string]string{
		`{"tags":[]}`:                       "details.n",
		`{"n":-1,"tags":[]}`:                "details.n",
		`{"n":1.5,"tags":[]}`:               "details.n",
		`{"n":1,"tags":[1]}`:                "details.tags",
		`{"n":1,"tags":[],"unit":"h"}`:      "details.unit",
		`{"n":true,"tags":[],"unit":"s"}`:   "details.n",
		`{"n":3.0,"tags":["x"],"unit":"s"}`: "",
	} {
		value, _ := decode([]byte(details))
		_, err := New(toy(), "toy_typed", value.(map[string]any))
		var invalid *InvalidPayloadError
		if field == "" {
			if err != nil {
				t.Errorf("%s: %v", details, err)
			}
		} else if !errors.As(err, &invalid) || invalid.Field != field {
			t.Errorf("%s: got %v, want field %s", details, err, field)
		}
	}
}

// docs "Hierarchies": an unknown code a domain's match claims is treated as
// that domain's code (its <domain>_error code, else the fallback) and carries
// the domain and its statuses; the longest prefix and the innermost range win.
func TestMatchesSendUnknownCodesToTheirDomain(t *testing.T) {
	specs := []Spec{
		{Code: "toy_error", Domain: "toy", Meaning: "Toy", HTTPStatus: 500},
		{Code: "shelf_error", Domain: "shelf", Retryable: true, Meaning: "Shelf"},
	}
	tax := NewTaxonomy(specs, "toy_error", "toy_error", "^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*)$", nil, []Match{
		{Domain: "shelf", Code: "shelf_error", Prefix: "shelf_"},
		{Domain: "top", Code: "toy_error", Prefix: "shelf_top_", Meaning: "Top shelf", HTTPStatus: 409},
	})
	if err, _ := FromPayload(tax, []byte(`{"code":"shelf_top_x","message":"m","retryable":false}`)); err.Meaning() != "Top shelf" {
		t.Errorf("a matched error's meaning is its class's: got %q", err.Meaning())
	}
	for code, want := range map[string][3]string{
		"shelf_low":      {"shelf_error", "shelf", "0"},
		"shelf_top_left": {"toy_error", "top", "409"},
		"shelf_to":       {"shelf_error", "shelf", "0"},
		"zz_other":       {"toy_error", "toy", "500"},
		"shelf_error":    {"shelf_error", "shelf", "0"},
	} {
		err, problem := FromPayload(tax, []byte(`{"code":"`+code+`","message":"m","retryable":false}`))
		if problem != nil {
			t.Fatalf("%s: %v", code, problem)
		}
		got := [3]string{string(err.Code), string(err.Domain()), strconv.Itoa(err.HTTPStatus())}
		if got != want || err.WireCode != code || Lookup(tax, code) != Code(want[0]) {
			t.Errorf("%s: got %v (wire %q, Lookup %q), want %v", code, got, err.WireCode, Lookup(tax, code), want)
		}
	}
	ranged := NewTaxonomy([]Spec{{Code: "-32000", Domain: "server", Meaning: "Server"}}, "-32000", "-32000", "", nil, []Match{
		{Domain: "reserved", Code: "-32000", Low: -32768, High: -32000},
		{Domain: "inner", Code: "-32000", Low: -32099, High: -32000},
	})
	for code, want := range map[string]string{
		"-32768": "reserved", "-32100": "reserved", "-32099": "inner", "-32001": "inner",
		"-32000": "server", "-32769": "server", "-31999": "server",
	} {
		err, problem := FromPayload(ranged, []byte(`{"code":`+code+`,"message":"m","retryable":false}`))
		if problem != nil || string(err.Domain()) != want || err.WireCode != code {
			t.Errorf("%s: got %v %v, want domain %s", code, err, problem, want)
		}
	}
}
