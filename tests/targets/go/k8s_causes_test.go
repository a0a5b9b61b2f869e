// The real Kubernetes Status bodies with details.causes (tests/catalogues/
// kubernetes/bodies/, live API servers' 422s) through the Go package of
// tests/cases/kubernetes (issue 30 §7): each is received, its causes read as
// typed structs (Causes[i].Reason), and written back as it came (metadata
// included: outside: keep); a cause whose field is no string is refused
// naming its path.
// tests/targets/go/test_go_nested.py copies it into that module (as causes/)
// and gives it TAXOGEN_BODIES, a JSON array of the bodies as quoted.
package causes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func bodies(t *testing.T) []map[string]any {
	var found []map[string]any
	if err := json.Unmarshal([]byte(os.Getenv("TAXOGEN_BODIES")), &found); err != nil || len(found) == 0 {
		t.Fatalf("TAXOGEN_BODIES must be a JSON array of bodies: %v", err)
	}
	return found
}

func TestRealCausesRoundTrip(t *testing.T) {
	for i, body := range bodies(t) {
		raw, _ := json.Marshal(body)
		err, bad := gen.FromPayload(raw)
		if bad != nil {
			t.Fatalf("body %d: %v", i, bad)
		}
		out, bad := json.Marshal(err)
		if bad != nil {
			t.Fatal(bad)
		}
		var back any
		if json.Unmarshal(out, &back) != nil || !reflect.DeepEqual(back, any(body)) {
			t.Errorf("body %d written back:\n%s\nreceived:\n%s", i, out, raw)
		}
		var details gen.InvalidDetails
		if bad := err.DecodeDetails(&details); bad != nil {
			t.Fatal(bad)
		}
		causes := body["details"].(map[string]any)["causes"].([]any)
		if len(details.Causes) != len(causes) {
			t.Fatalf("body %d: %d causes, want %d", i, len(details.Causes), len(causes))
		}
		for j, cause := range causes {
			want := cause.(map[string]any)
			got := details.Causes[j]
			if *got.Reason != want["reason"] || *got.Field != want["field"] || *got.Message != want["message"] {
				t.Errorf("body %d cause %d: got %+v, want %v", i, j, got, want)
			}
		}
	}
}

func TestAMisfittingRealCauseIsNamedByItsPath(t *testing.T) {
	for i, body := range bodies(t) {
		causes := body["details"].(map[string]any)["causes"].([]any)
		last := len(causes) - 1
		causes[last].(map[string]any)["field"] = 7 // StatusCause.Field is a string
		raw, _ := json.Marshal(body)
		_, bad := gen.FromPayload(raw)
		var invalid *gen.InvalidPayloadError
		want := fmt.Sprintf("details.causes[%d].field", last)
		if !errors.As(bad, &invalid) || invalid.Field != want {
			t.Errorf("body %d: got %v, want a problem at %s", i, bad, want)
		}
	}
}
