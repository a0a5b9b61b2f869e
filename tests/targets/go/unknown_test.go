// Issue 30 §3 in a generated Go package: with fallback: null, New builds an
// error of an unknown (well-formed) code, the code its own, as the root class's
// constructor does in Python and TypeScript; an ill-formed one is refused.
// tests/test_unknown_codes.py copies it into the generated module of
// tests/cases/oauth_unknown (as unknown/) and gives it, in TAXOGEN_UNKNOWN, a
// code the YAML does not define and the taxonomy's title (tests/spec_oracle.py).
package unknown

import (
	"encoding/json"
	"os"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func TestNewBuildsAnErrorOfAnUnknownCode(t *testing.T) {
	var given struct {
		Code   string `json:"code"`
		Title  string `json:"title"`
		Member string `json:"member"`
	}
	if err := json.Unmarshal([]byte(os.Getenv("TAXOGEN_UNKNOWN")), &given); err != nil {
		t.Fatalf("TAXOGEN_UNKNOWN: %v", err)
	}
	err, bad := gen.New(gen.Code(given.Code), nil)
	if bad != nil {
		t.Fatalf("New(%q): %v", given.Code, bad)
	}
	if string(err.Code) != given.Code || err.WireCode != given.Code {
		t.Errorf("code: got %q (wire %q), want %q", err.Code, err.WireCode, given.Code)
	}
	if err.Domain() != "" || err.Retryable || err.HTTPStatus() != 0 {
		t.Errorf("got domain %q, retryable %v, status %d", err.Domain(), err.Retryable, err.HTTPStatus())
	}
	if err.Meaning() != given.Title || err.Message != given.Title {
		t.Errorf("meaning %q, message %q: want the title %q", err.Meaning(), err.Message, given.Title)
	}
	data, merr := json.Marshal(err)
	if merr != nil {
		t.Fatalf("MarshalJSON: %v", merr)
	}
	var sent map[string]any
	if uerr := json.Unmarshal(data, &sent); uerr != nil || sent[given.Member] != given.Code {
		t.Errorf("payload %s: want %s %q", data, given.Member, given.Code)
	}
	again, ferr := gen.FromPayload(data)
	if ferr != nil || again.Code != err.Code {
		t.Errorf("round trip: %v, %v", again, ferr)
	}
	if gen.Lookup(given.Code) != gen.Code(given.Code) || gen.IsRetryable(given.Code) {
		t.Errorf("Lookup(%q) = %q, IsRetryable %v", given.Code, gen.Lookup(given.Code), gen.IsRetryable(given.Code))
	}
	if _, bad := gen.New("not a code", nil); bad == nil || bad.(*gen.InvalidPayloadError).Field != "code" {
		t.Errorf("New of an ill-formed code: %v", bad)
	}
}
