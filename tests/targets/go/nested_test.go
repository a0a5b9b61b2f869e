// Nested details (issue 30 §7) from a consumer program of the Go package of
// tests/cases/nested_details: the typed constructors take the nested structs,
// a received error's details decode into them (Causes[0].Reason), a missing or
// misfitting member is named by its path, and an undeclared nested member is
// written back as received. tests/targets/go/test_go.py copies it into that
// case's module (as nested/). The expectations are the case's taxonomy.yaml
// and the words, written out here by hand.
package nested

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		t.Fatalf("not JSON: %s / %s", got, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestTheTypedConstructorWritesTheNestedStructs(t *testing.T) {
	field, class, generation := "spec.replicas", "gold", int64(2)
	err := gen.NewInvalidError(gen.InvalidDetails{
		Causes: []gen.DetailsCausesItem{
			{Reason: "FieldValueInvalid", Field: &field},
			{Reason: "FieldValueRequired"},
		},
		Resource: gen.ResourceDetailsResource{
			Kind:  "Deployment",
			Name:  "web",
			Class: &class,
			Owner: &gen.ResourceDetailsResourceOwner{UID: "u-1", Generation: &generation},
		},
	})
	data, bad := json.Marshal(err)
	if bad != nil {
		t.Fatal(bad)
	}
	sameJSON(t, data, `{"code": "invalid", "message": "The resource is invalid",
		"retryable": false, "details": {
		"causes": [{"reason": "FieldValueInvalid", "field": "spec.replicas"},
			{"reason": "FieldValueRequired"}],
		"resource": {"kind": "Deployment", "name": "web", "class": "gold",
			"owner": {"uid": "u-1", "generation": 2}}}}`)
	// What the constructor built is what FromPayload accepts.
	if _, problem := gen.New(gen.CodeInvalid, err.Details); problem != nil {
		t.Errorf("New refuses the typed constructor's details: %v", problem)
	}
}

// TestTheManualsExample is docs/go.md "Nested objects", line for line
// (tests/targets/go/test_go.py holds the page to it).
func TestTheManualsExample(t *testing.T) {
	field := "spec.replicas"
	err := gen.NewInvalidError(gen.InvalidDetails{
		Causes:   []gen.DetailsCausesItem{{Reason: "FieldValueInvalid", Field: &field}},
		Resource: gen.ResourceDetailsResource{Kind: "Deployment", Name: "web"},
	})
	data, _ := json.Marshal(err)
	received, _ := gen.FromPayload(data)
	var details gen.InvalidDetails
	_ = received.DecodeDetails(&details)
	reason := details.Causes[0].Reason
	if reason != "FieldValueInvalid" || *details.Causes[0].Field != field || details.Resource.Name != "web" {
		t.Errorf("got %+v", details)
	}
}

func TestReceivedDetailsDecodeIntoTheNestedStructs(t *testing.T) {
	err, bad := gen.FromPayload([]byte(`{"code": "not_found", "message": "Pod not found",
		"retryable": false, "details": {"kind_hint": "Pod",
		"causes": [{"reason": "FieldValueRequired", "message": "name is required"}],
		"resource": {"kind": "Pod", "name": "db-0", "owner": {"uid": "u-9", "type": "StatefulSet"}}}}`))
	if bad != nil {
		t.Fatal(bad)
	}
	var details gen.NotFoundDetails
	if bad := err.DecodeDetails(&details); bad != nil {
		t.Fatal(bad)
	}
	if details.Causes[0].Reason != "FieldValueRequired" || *details.Causes[0].Message != "name is required" {
		t.Errorf("causes: %+v", details.Causes)
	}
	if details.Causes[0].Field != nil || details.Resource.Class != nil {
		t.Errorf("an absent optional member is nil: %+v", details)
	}
	owner := details.Resource.Owner
	if details.Resource.Name != "db-0" || owner == nil || owner.UID != "u-9" || *owner.Type != "StatefulSet" || owner.Generation != nil {
		t.Errorf("resource: %+v, owner %+v", details.Resource, owner)
	}
}

func TestAnUndeclaredNestedMemberIsWrittenBackAsReceived(t *testing.T) {
	body := `{"code": "invalid", "message": "m", "retryable": false, "details": {
		"causes": [{"reason": "FieldValueInvalid", "origin": {"line": 3}}],
		"resource": {"kind": "Pod", "name": "w", "uid": "kept",
			"owner": {"uid": "u", "controller": true}},
		"tags": [{"team": "a"}]}}`
	err, bad := gen.FromPayload([]byte(body))
	if bad != nil {
		t.Fatal(bad)
	}
	data, bad := json.Marshal(err)
	if bad != nil {
		t.Fatal(bad)
	}
	sameJSON(t, data, body)
}

func TestABadMemberIsNamedByItsPath(t *testing.T) {
	for _, c := range []struct{ details, field, message string }{
		{`{"resource": {"kind": "Pod", "name": "w"}, "causes": [{"reason": "FieldValueInvalid"}, {"field": "x"}]}`,
			"details.causes[1].reason", "details.causes[1].reason: required, missing"},
		{`{"resource": {"kind": "Pod", "name": "w"}, "causes": [{"reason": "Gone"}]}`,
			"details.causes[0].reason", `details.causes[0].reason: expected one of "FieldValueInvalid", "FieldValueRequired", got "Gone"`},
		{`{"resource": {"kind": "Pod", "name": "w", "owner": {"uid": "u", "generation": 0}}}`,
			"details.resource.owner.generation", "details.resource.owner.generation: expected at least 1, got 0"},
		{`{"resource": {"kind": "Pod", "name": "w", "owner": {"type": "x"}}}`,
			"details.resource.owner.uid", "details.resource.owner.uid: required, missing"},
		{`{"resource": {"kind": "Pod", "name": "w", "owner": "u"}}`,
			"details.resource.owner", "details.resource.owner: expected an object, got a string"},
		{`{"resource": {"kind": "Pod", "name": "w"}, "causes": [{"reason": "FieldValueInvalid"}, 7]}`,
			"details.causes", "details.causes[1]: expected an object, got a number"},
	} {
		payload := `{"code": "invalid", "message": "m", "retryable": false, "details": ` + c.details + `}`
		_, bad := gen.FromPayload([]byte(payload))
		var invalid *gen.InvalidPayloadError
		if !errors.As(bad, &invalid) || invalid.Field != c.field || !strings.HasPrefix(invalid.Message, c.message) {
			t.Errorf("%s: got %v, want %s (%s)", c.details, bad, c.field, c.message)
		}
	}
}

func TestNewChecksNestedMapsOfAnyType(t *testing.T) {
	details := map[string]any{"resource": map[string]string{"kind": "Pod"}}
	_, bad := gen.New(gen.CodeInvalid, details)
	var invalid *gen.InvalidPayloadError
	if !errors.As(bad, &invalid) || invalid.Field != "details.resource.name" {
		t.Errorf("got %v, want details.resource.name", bad)
	}
}
