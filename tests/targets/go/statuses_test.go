// Issue 30 §2 in a generated Go package: each error's own HTTP status
// ("Go HTTPStatus(): the received one where the payload carries it, else a
// constructor argument, else its class's"), set with WithHTTPStatus.
// tests/targets/go/test_go_statuses.py copies it into the generated modules of
// tests/cases/oauth_statuses and tests/cases/k8s_status (as statuses/), and
// gives it, in TAXOGEN_STATUS_SPEC, what the case's YAML says
// (tests/spec_oracle.py): the statuses of one code, its default first, the
// payload's status member ("" for none), the code's wire code and its member.
package statuses

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

type spec struct {
	Code     string `json:"code"`
	Statuses []int  `json:"statuses"`
	Member   string `json:"member"`
	CodeAt   string `json:"code_member"`
}

func readSpec(t *testing.T) spec {
	t.Helper()
	var s spec
	if err := json.Unmarshal([]byte(os.Getenv("TAXOGEN_STATUS_SPEC")), &s); err != nil {
		t.Fatalf("TAXOGEN_STATUS_SPEC: %v", err)
	}
	return s
}

func build(t *testing.T, s spec) *gen.Error {
	t.Helper()
	err, bad := gen.New(gen.Lookup(s.Code), nil)
	if bad != nil || string(err.Code) != s.Code {
		t.Fatalf("New(%q): %v %v", s.Code, err, bad)
	}
	return err
}

func body(t *testing.T, err *gen.Error) map[string]any {
	t.Helper()
	data, bad := json.Marshal(err)
	if bad != nil {
		t.Fatalf("MarshalJSON: %v", bad)
	}
	out := map[string]any{}
	if bad := json.Unmarshal(data, &out); bad != nil {
		t.Fatalf("%s: %v", data, bad)
	}
	return out
}

func TestWithHTTPStatusIsTheErrorsOwn(t *testing.T) {
	s := readSpec(t)
	plain := build(t, s)
	if plain.HTTPStatus() != s.Statuses[0] {
		t.Errorf("default: got %d, want %d", plain.HTTPStatus(), s.Statuses[0])
	}
	for _, status := range append(append([]int{}, s.Statuses...), 100, 418, 599) {
		own := plain.WithHTTPStatus(status)
		if own.HTTPStatus() != status {
			t.Errorf("WithHTTPStatus(%d).HTTPStatus() = %d", status, own.HTTPStatus())
		}
		// A copy: the error it was made from keeps its code's status.
		if plain.HTTPStatus() != s.Statuses[0] || own.Code != plain.Code {
			t.Errorf("WithHTTPStatus(%d) changed the original: %d", status, plain.HTTPStatus())
		}
		got := body(t, own)
		if s.Member == "" {
			if len(got) != len(body(t, plain)) {
				t.Errorf("no status member, yet the body changed: %v", got)
			}
			continue
		}
		if got[s.Member] != float64(status) {
			t.Errorf("%s written: got %v, want %d", s.Member, got[s.Member], status)
		}
	}
	if s.Member != "" {
		if got := body(t, plain)[s.Member]; got != float64(s.Statuses[0]) {
			t.Errorf("%s of a plain error: got %v, want its code's %d", s.Member, got, s.Statuses[0])
		}
	}
}

func TestWithHTTPStatusRefusesWhatIsNoHTTPStatus(t *testing.T) {
	s := readSpec(t)
	for _, status := range []int{0, 99, 600, -404} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(strings.ToLower(r.(string)), "from 100 to 599") {
					t.Errorf("WithHTTPStatus(%d): recovered %v", status, r)
				}
			}()
			build(t, s).WithHTTPStatus(status)
		}()
	}
}

func TestAReceivedStatusIsTheErrorsOwn(t *testing.T) {
	s := readSpec(t)
	if s.Member == "" {
		t.Skip("no status member")
	}
	in := `{"` + s.CodeAt + `":"` + s.Code + `","message":"m","` + s.Member + `":418}`
	got, err := gen.FromPayload([]byte(in))
	if err != nil || got.HTTPStatus() != 418 || string(got.Code) != s.Code {
		t.Fatalf("FromPayload(%s): %v %v", in, got, err)
	}
	if body(t, got)[s.Member] != float64(418) {
		t.Errorf("written back: %v", body(t, got))
	}
	if build(t, s).HTTPStatus() != s.Statuses[0] {
		t.Errorf("the class's status changed")
	}
}
