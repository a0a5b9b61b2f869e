// One real error body, received and written back by a generated Go package:
// FromPayload then MarshalJSON gives the same JSON (as parsed), and the
// error's HTTPStatus() is the one the body was answered with (issue 30 §2).
// tests/test_k8s_status_body.py copies it into a generated module (as body/)
// and gives it TAXOGEN_BODY (the body's bytes, as quoted), TAXOGEN_BODY_CODE
// and TAXOGEN_BODY_STATUS (what tests/catalogues/<name>/bodies/index.json says).
package body

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func TestTheRealBodyRoundTrips(t *testing.T) {
	raw := []byte(os.Getenv("TAXOGEN_BODY"))
	status, bad := strconv.Atoi(os.Getenv("TAXOGEN_BODY_STATUS"))
	if len(raw) == 0 || bad != nil {
		t.Fatalf("TAXOGEN_BODY and TAXOGEN_BODY_STATUS must be set")
	}
	err, bad := gen.FromPayload(raw)
	if bad != nil {
		t.Fatalf("FromPayload: %v", bad)
	}
	if string(err.Code) != os.Getenv("TAXOGEN_BODY_CODE") || err.HTTPStatus() != status {
		t.Errorf("got code %q, status %d", err.Code, err.HTTPStatus())
	}
	out, bad := json.Marshal(err)
	if bad != nil {
		t.Fatalf("MarshalJSON: %v", bad)
	}
	var want, got any
	if json.Unmarshal(raw, &want) != nil || json.Unmarshal(out, &got) != nil {
		t.Fatalf("not JSON: %s / %s", raw, out)
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("written back:\n%s\nreceived:\n%s", out, raw)
	}
}
