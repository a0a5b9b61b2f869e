// docs/rust.md "Nested objects": a consumer of the crate of
// tests/cases/nested_details (issue 30 §7) builds nested details with the
// typed structs, reads `causes[0].reason` typed, and sees a payload's
// undeclared nested member written back and a misfitting member named by its
// path. The lines between the two marks are the manual's example, word for
// word (test_rust.py holds the manual to them). tests/targets/rust/test_rust.py
// copies this file into that case's crate only (as tests/nested_example.rs).

use TAXOGEN_RUST_CRATE as nested_details_errors;

#[test]
fn nested_example() {
    // Manual begin
    use nested_details_errors::{from_payload, serde_json, DetailsCausesItem, NotFoundDetails};
    use nested_details_errors::{ResourceDetailsResource, ResourceDetailsResourceOwner};

    // Nested objects are structs: members named as the wire does (r#type).
    let err = nested_details_errors::new_not_found_error(NotFoundDetails {
        causes: Some(vec![DetailsCausesItem {
            reason: "FieldValueRequired".into(),
            field: Some("spec.name".into()),
            message: None,
        }]),
        resource: ResourceDetailsResource {
            kind: "Pod".into(),
            name: "web-1".into(),
            class: None,
            owner: Some(ResourceDetailsResourceOwner {
                uid: "u-7".into(),
                r#type: Some("ReplicaSet".into()),
                generation: Some(3),
            }),
        },
        kind_hint: "Pod".into(),
    });
    let payload = err.to_value();
    let owner = &payload["details"]["resource"]["owner"];
    assert_eq!(owner["type"], "ReplicaSet");

    // Typed access to what was received: causes[0].reason.
    let back = from_payload(&err.to_payload()).expect("a valid payload");
    let details: NotFoundDetails = back.details_as().expect("typed details");
    let causes = details.causes.expect("causes were sent");
    assert_eq!(causes[0].reason, "FieldValueRequired");
    assert_eq!(causes[0].field.as_deref(), Some("spec.name"));

    // An undeclared nested member is kept: the payload written back is the
    // one received (details_as gives the declared members only).
    let json = r#"{"code": "not_found", "message": "Pod not found",
        "retryable": false, "details": {"kind_hint": "Pod",
        "resource": {"kind": "Pod", "name": "web-1", "zone": "eu-1"}}}"#;
    let kept = from_payload(json).expect("a valid payload");
    let sent: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(kept.to_value(), sent);

    // A missing or misfitting member is named by its path.
    let bad = r#"{"code": "not_found", "message": "m", "retryable": false,
        "details": {"kind_hint": "Pod", "resource": {"kind": "Pod", "name": "x"},
        "causes": [{"reason": "FieldValueInvalid"}, {"field": "spec"}]}}"#;
    let problem = from_payload(bad).unwrap_err();
    assert_eq!(problem.field(), "details.causes[1].reason");
    assert_eq!(
        problem.message(),
        "details.causes[1].reason: required, missing"
    );
    // Manual end
}
