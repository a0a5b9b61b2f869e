// Issue 30 §7 on real bodies: the Kubernetes Status bodies of
// tests/catalogues/kubernetes/bodies (k8s_bodies.json beside Cargo.toml, as
// test_rust.py writes it from index.json) are read by the crate of
// tests/cases/kubernetes: each is accepted as its reason, its details kept as
// received (causes and all), its causes typed as DetailsCausesItem with the body's
// words; a cause whose field is no string is refused, named by its path.
// tests/targets/rust/test_rust.py copies this file into that case's crate only.

use TAXOGEN_RUST_CRATE as kubernetes_errors;

use kubernetes_errors::serde_json::{self, Value};
use kubernetes_errors::{from_payload, DetailsCausesItem};

fn bodies() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/k8s_bodies.json");
    let text = std::fs::read_to_string(path).expect("k8s_bodies.json");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn k8s_bodies() {
    let mut with_causes = 0;
    for (i, body) in bodies().iter().enumerate() {
        let err = from_payload(&body.to_string()).expect("a real body is accepted");
        assert_eq!(err.wire_code(), body["reason"], "body {}", i);
        let details = Value::Object(err.details().clone());
        assert_eq!(details, body["details"], "body {}: details as received", i);
        let sent = match body["details"]["causes"].as_array() {
            Some(sent) => sent.clone(),
            None => continue,
        };
        with_causes += 1;
        let causes: Vec<DetailsCausesItem> =
            serde_json::from_value(details["causes"].clone()).expect("typed causes");
        assert_eq!(causes.len(), sent.len());
        for (cause, raw) in causes.iter().zip(&sent) {
            assert_eq!(cause.reason.as_deref(), raw["reason"].as_str());
            assert_eq!(cause.message.as_deref(), raw["message"].as_str());
            assert_eq!(cause.field.as_deref(), raw["field"].as_str());
        }
        let last = sent.len() - 1;
        let mut bad = body.clone();
        bad["details"]["causes"][last]["field"] = Value::from(7);
        let problem = from_payload(&bad.to_string()).unwrap_err();
        assert_eq!(problem.field(), format!("details.causes[{}].field", last));
    }
    assert!(with_causes >= 2, "the catalogue's bodies with causes");
}
