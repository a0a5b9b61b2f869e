// Go's FromPayload and New as strict as Python's and TypeScript's (issue 29 §5),
// on a toy taxonomy: numbers finite only, at any length (1e400 is +Inf in
// JavaScript, so every runtime refuses it), the same limits, and New refusing
// what FromPayload would refuse of its own output while taking every Go
// integer type. The expectations are the words and JSON's (RFC 8259,
// read as doubles), never this runtime's own answers. tests/targets/go/test_go.py copies
// it into internal/taxogen of the shipped taxonomy's module.
package taxogen

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The numbers, written here.
const (
	maxDepth = 64
	maxNodes = 100000
	maxSafe  = 1<<53 - 1
)

// The smallest integer a double cannot hold (2**1024 - 2**970 rounds up to
// 2**1024, past the largest double), and the largest double, written out.
const (
	firstInfinite = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"
	largestDouble = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
)

func numbers() *Taxonomy {
	return NewTaxonomy([]Spec{
		{Code: "toy_error", Domain: "toy", Meaning: "Toy"},
		{Code: "toy_slow", Domain: "toy", Retryable: true, Meaning: "Slow",
			Fields: []Field{
				{Name: "retry_after_s", Type: "number", Required: true, Minimum: Float(0)},
				{Name: "count", Type: "integer", Minimum: Float(-maxSafe), Maximum: Float(maxSafe)},
				{Name: "sizes", Type: "array", Items: &Shape{Type: "integer"}},
			},
			Template: []Piece{{Text: "retry after ", Field: "retry_after_s"}, {Text: "s"}}},
	}, "toy_error", "toy_error", "^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*)$", nil, nil)
}

// cut is text short enough to name a case.
func cut(text string) string {
	if len(text) > 24 {
		return text[:21] + "..."
	}
	return text
}

func refusedAt(t *testing.T, what string, err error, field string) {
	t.Helper()
	var invalid *InvalidPayloadError
	if !errors.As(err, &invalid) {
		t.Errorf("%s: want an *InvalidPayloadError about %s, got %v", what, field, err)
	} else if invalid.Field != field {
		t.Errorf("%s: field %q, want %q (%s)", what, invalid.Field, field, invalid.Message)
	} else if len(invalid.Message) > 300 {
		t.Errorf("%s: a message of %d bytes", what, len(invalid.Message))
	}
}

func TestFromPayloadRefusesEveryNumberADoubleCannotHold(t *testing.T) {
	for _, number := range []string{
		"1e400", "-1e400", "1E+309", firstInfinite, "-" + firstInfinite,
		"1" + strings.Repeat("0", 5000), "1" + strings.Repeat("0", 5000) + ".5",
	} {
		for _, details := range []string{
			`{"x":` + number + `}`,
			`{"x":[{"y":` + number + `}]}`,
			`{"retry_after_s":` + number + `}`, // a declared number field: no +Inf
			`{"retry_after_s":1,"count":` + number + `}`,
		} {
			for _, code := range []string{"toy_error", "toy_slow"} {
				payload := `{"code":"` + code + `","message":"m","retryable":true,"details":` + details + `}`
				err, problem := FromPayload(numbers(), []byte(payload))
				refusedAt(t, cut(details), problem, "details")
				if err != nil {
					t.Errorf("an error came back with the problem: %v", err.Details)
				}
			}
		}
	}
}

func TestFromPayloadTakesEveryFiniteNumberWhateverItsLength(t *testing.T) {
	for number, want := range map[string]float64{
		largestDouble:                          math.MaxFloat64,
		"-" + largestDouble:                    -math.MaxFloat64,
		"0.5" + strings.Repeat("0", 5000):      0.5,
		"0." + strings.Repeat("0", 5000) + "1": 0,
		"1e-400":                               0,
		"1.7976931348623157e308":               math.MaxFloat64,
	} {
		payload := `{"code":"toy_slow","message":"m","retryable":true,"details":{"retry_after_s":1,"x":` + number + `}}`
		err, problem := FromPayload(numbers(), []byte(payload))
		if problem != nil {
			t.Errorf("%s: %v", cut(number), problem)
			continue
		}
		got, _ := strconv.ParseFloat(string(err.Details["x"].(json.Number)), 64)
		if got != want {
			t.Errorf("%s: %v", cut(number), got)
		}
	}
}

func TestAnIntegerCodeThatIsNoFiniteNumberIsRefused(t *testing.T) {
	tax := NewTaxonomy([]Spec{{Code: "-32000", Domain: "server", Meaning: "Server"}}, "-32000", "-32000", "", nil, nil)
	for _, code := range []string{"1e400", firstInfinite, "9007199254740992"} {
		_, problem := FromPayload(tax, []byte(`{"code":`+code+`,"message":"m","retryable":false}`))
		refusedAt(t, cut(code), problem, "code")
	}
}

func TestTheProblemNamedIsTheSameOnEveryRun(t *testing.T) {
	payload := `{"code":"toy_error","message":"m","retryable":true,"details":{"d":[1e400],"c":1e999,"b":{"z":-1e400,"a":1e400}}}`
	for i := 0; i < 50; i++ {
		_, problem := FromPayload(numbers(), []byte(payload))
		if problem == nil || problem.Error() != "details.b.a: 1e400 is not a finite number" {
			t.Fatalf("run %d: %v", i, problem)
		}
	}
}

// nested is a map v levels deep (the details themselves are level 1).
func nested(levels int) map[string]any {
	v := map[string]any{}
	for i := 1; i < levels; i++ {
		v = map[string]any{"a": v}
	}
	return v
}

func TestNewRefusesWhatFromPayloadWouldRefuseOfItsOwnOutput(t *testing.T) {
	cycle := map[string]any{}
	cycle["self"] = cycle
	loop := make([]any, 1)
	loop[0] = loop
	many := make([]int, 200000)
	type point struct{ X int }
	x := 1
	for what, value := range map[string]any{
		"NaN":               math.NaN(),
		"+Inf":              math.Inf(1),
		"-Inf":              math.Inf(-1),
		"float32 NaN":       float32(math.NaN()),
		"json.Number NaN":   json.Number("NaN"),
		"json.Number 1e400": json.Number("1e400"),
		"a cyclic map":      cycle,
		"a cyclic slice":    loop,
		"a channel":         make(chan int),
		"a func":            func() {},
		"a complex number":  complex(1, 2),
		"deep":              nested(100000),
		"65 deep":           nested(maxDepth), // under the details object: 65
		"200,000 values":    many,
		"a struct":          point{1},
		"a pointer":         &x,
		"bytes":             []byte("x"),
		"a time.Time":       time.Unix(0, 0),
		"int keys":          map[int]any{1: 2},
		"not UTF-8":         "\xff",
		"a key not UTF-8":   map[string]any{"\xff": 1},
		"NaN in a slice":    []float64{1, math.NaN()},
	} {
		for _, code := range []Code{"toy_error", "toy_slow"} {
			details := map[string]any{"retry_after_s": 1, "x": value}
			err, problem := New(numbers(), code, details)
			refusedAt(t, what, problem, "details")
			if err != nil {
				t.Errorf("%s: an error came back: %q", what, err.Message)
			}
		}
	}
	// A typed number field: no "retry after NaNs".
	for _, value := range []any{math.NaN(), math.Inf(1), float32(math.Inf(-1))} {
		_, problem := New(numbers(), "toy_slow", map[string]any{"retry_after_s": value})
		refusedAt(t, "retry_after_s", problem, "details")
	}
}

func TestNewTakesAsManyValuesAndAsDeepAsFromPayload(t *testing.T) {
	most := make([]any, maxNodes-2) // the details, "x" and its items
	for _, details := range []map[string]any{
		{"x": most},
		nested(maxDepth),
	} {
		err, problem := New(numbers(), "toy_error", details)
		if problem != nil {
			t.Fatalf("refused: %v", problem)
		}
		data, merr := json.Marshal(err)
		if merr != nil {
			t.Fatalf("MarshalJSON: %v", merr)
		}
		if _, again := FromPayload(numbers(), data); again != nil {
			t.Errorf("FromPayload of New's output: %v", again)
		}
	}
	_, problem := New(numbers(), "toy_error", map[string]any{"x": append(most, nil)})
	refusedAt(t, "one more", problem, "details")
}

func TestNewTakesEveryGoIntegerType(t *testing.T) {
	values := []any{
		int8(5), int16(5), int32(5), int64(5), int(5),
		uint8(5), uint16(5), uint32(5), uint64(5), uint(5),
		int64(maxSafe), int64(-maxSafe), uint64(maxSafe), int(-maxSafe),
		int8(-128), uint16(65535),
	}
	for _, value := range values {
		text := strconv.FormatFloat(reflect.ValueOf(value).Convert(reflect.TypeOf(0.0)).Float(), 'f', -1, 64)
		wait, want := value, "retry after "+text+"s"
		if strings.HasPrefix(text, "-") { // retry_after_s is at least 0
			wait, want = 1, "retry after 1s"
		}
		details := map[string]any{"retry_after_s": wait, "count": value, "sizes": []any{value}}
		err, problem := New(numbers(), "toy_slow", details)
		if problem != nil {
			t.Errorf("%T(%v): %v", value, value, problem)
			continue
		}
		if err.Message != want {
			t.Errorf("%T(%v): message %q, want %q", value, value, err.Message, want)
		}
		data, merr := json.Marshal(err)
		if merr != nil {
			t.Fatalf("%T: MarshalJSON: %v", value, merr)
		}
		again, ferr := FromPayload(numbers(), data)
		if ferr != nil {
			t.Errorf("%T(%v): FromPayload of its own output: %v", value, value, ferr)
		} else if got := again.Details["count"].(json.Number).String(); got != text {
			t.Errorf("%T(%v): came back as %s", value, value, got)
		}
	}
	// The typed slices a caller holds are arrays of numbers too.
	for _, sizes := range []any{[]int8{1}, []uint16{1}, []int{1}, []uint64{maxSafe}, [2]int32{1, 2}} {
		if _, problem := New(numbers(), "toy_slow", map[string]any{"retry_after_s": 1, "sizes": sizes}); problem != nil {
			t.Errorf("%T: %v", sizes, problem)
		}
	}
	// Past the bounds of the field: refused as FromPayload refuses them.
	for _, value := range []any{int64(maxSafe + 1), uint64(maxSafe + 1), int64(-maxSafe - 1)} {
		_, problem := New(numbers(), "toy_slow", map[string]any{"retry_after_s": 1, "count": value})
		refusedAt(t, "past the bounds", problem, "details.count")
	}
}
