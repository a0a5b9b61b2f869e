// The Rust API of the shipped taxonomy as README "Rust" shows it: the lines
// between the two marks are the README's example, word for word (test_rust.py
// holds the README to them). tests/targets/rust/test_rust.py copies this file
// into the crate of taxonomy.yaml only (as tests/readme_example.rs).

use TAXOGEN_RUST_CRATE as harmovela_errors;

#[test]
fn readme_example() {
    // README begin
    use harmovela_errors::{from_payload, Code, Domain, TaskTimeoutDetails};

    // A typed constructor renders the code's message template.
    let err = harmovela_errors::new_task_timeout_error(TaskTimeoutDetails {
        task_id: "task_01".into(),
        timeout_ms: 300_000,
        elapsed_ms: None,
    });
    assert_eq!(err.message(), "task task_01 exceeded the 300000ms deadline");
    assert!(err.is_task_timeout_error() && err.is_retryable());
    assert!(err.in_domain_task() && err.domain() == Some(Domain::Task));

    // The wire: to_payload, then from_payload, back to the same code.
    let back = from_payload(&err.to_payload()).expect("a valid payload");
    assert_eq!(back.code(), &Code::TaskTimeout);
    let details: TaskTimeoutDetails = back.details_as().expect("typed details");
    assert_eq!(details.timeout_ms, 300_000);

    // A code this version does not know: the fallback code, the wire code kept.
    let json = r#"{"code": "task_new_thing", "message": "m", "retryable": true}"#;
    let newer = from_payload(json).expect("an unknown code is still an error");
    assert_eq!(newer.code(), &harmovela_errors::lookup("task_new_thing"));
    assert_eq!(newer.wire_code(), "task_new_thing");
    assert_eq!(Code::from_wire("task_new_thing").as_str(), "task_new_thing");

    // A refused payload says which field is wrong.
    let problem = from_payload(r#"{"code": 1}"#).unwrap_err();
    assert_eq!(problem.field(), "code");

    // Any error becomes the wrap code's, its cause kept as source().
    let io = std::io::Error::new(std::io::ErrorKind::Other, "disk full");
    let wrapped = harmovela_errors::Error::wrap(Box::new(io));
    assert!(std::error::Error::source(&wrapped).is_some());
    // README end
}
