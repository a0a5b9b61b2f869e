// Runs every conformance vector (conformance/vectors.json of a case) against the
// generated Rust crate: the same file the Python, TypeScript and Go suites run.
// tests/targets/rust/test_rust.py copies this file into each generated crate (as
// tests/conformance.rs) with TAXOGEN_RUST_CRATE replaced by the crate's library
// name, and the case's vectors beside Cargo.toml (TAXOGEN_VECTORS, if set, names
// other vectors: the negative control). Rust has no classes: every expectation
// that names a class also gives the code its error reports, and that is what is
// checked. Each failure is printed as "FAIL <id>: <why>"; the test fails unless it
// ran every vector, of kinds it knows, and none failed.

use std::error::Error as StdError;
use std::time::Duration;

use TAXOGEN_RUST_CRATE as gen;

use gen::serde_json::{self, Map, Value};

const KINDS: [&str; 6] = [
    "from_payload",
    "error_from_event",
    "lookup",
    "to_error",
    "construct",
    "retry_after",
];

/// JSON equality: numbers by value (3 and 3.0 are one number).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64().is_some() && x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).map_or(false, |w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A code of the vectors as Rust holds it: a string as it is, an integer code
/// as its decimal text.
fn code_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f == f.trunc() => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => format!("<not a code: {:?}>", other),
    }
}

struct Run<'a> {
    expect: &'a Map<String, Value>,
    problems: Vec<String>,
}

impl<'a> Run<'a> {
    fn fail(&mut self, why: String) {
        self.problems.push(why);
    }

    fn check_code(&mut self, err: &gen::Error) {
        let want = code_text(self.expect.get("code"));
        if err.code().as_str() != want {
            let class = self.expect.get("class");
            self.fail(format!(
                "code: got {:?}, want {} (class {:?})",
                err.code(),
                want,
                class
            ));
        }
    }

    fn check_mapped(&mut self, err: &gen::Error) {
        let e = self.expect;
        let status = e
            .get("http_status")
            .and_then(Value::as_u64)
            .map(|s| s as u16);
        if err.http_status() != status {
            self.fail(format!(
                "http_status: got {:?}, want {:?}",
                err.http_status(),
                status
            ));
        }
        let grpc = e.get("grpc_status").and_then(Value::as_str);
        if err.grpc_status() != grpc {
            self.fail(format!(
                "grpc_status: got {:?}, want {:?}",
                err.grpc_status(),
                grpc
            ));
        }
        let throttling = e
            .get("throttling")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if err.throttling() != throttling {
            self.fail(format!(
                "throttling: got {}, want {}",
                err.throttling(),
                throttling
            ));
        }
        let url = e.get("doc_url").and_then(Value::as_str);
        if err.doc_url() != url {
            self.fail(format!("doc_url: got {:?}, want {:?}", err.doc_url(), url));
        }
    }

    fn check_common(&mut self, err: &gen::Error) {
        self.check_mapped(err);
        self.check_code(err);
        let domain = self.expect.get("domain").and_then(Value::as_str);
        if err.domain().map(|d| d.as_str()) != domain {
            self.fail(format!("domain: got {:?}, want {:?}", err.domain(), domain));
        }
        let retryable = self.expect.get("retryable").and_then(Value::as_bool);
        if Some(err.is_retryable()) != retryable {
            self.fail(format!(
                "retryable: got {}, want {:?}",
                err.is_retryable(),
                retryable
            ));
        }
    }

    fn check_accepted(&mut self, err: &gen::Error) {
        self.check_common(err);
        let wire = code_text(self.expect.get("wire_code"));
        if err.wire_code() != wire {
            self.fail(format!(
                "wire code: got {:?}, want {}",
                err.wire_code(),
                wire
            ));
        }
        let payload = err.to_value();
        let want = self.expect.get("payload").cloned().unwrap_or(Value::Null);
        if !same(&payload, &want) {
            self.fail(format!("payload: got {}, want {}", payload, want));
        }
        // Issue 30 §1: received without its message.
        if let Some(want) = self.expect.get("message") {
            if Some(err.message()) != want.as_str() || !err.message_absent() {
                let got = (err.message(), err.message_absent());
                self.fail(format!("message: got {:?}, want {}, absent", got, want));
            }
        }
        // The round trip, and the error found again through a Box<dyn Error>.
        match gen::from_payload(&err.to_payload()) {
            Ok(again) if again.code() == err.code() && again.wire_code() == err.wire_code() => {}
            other => self.fail(format!("round trip: got {:?}", other)),
        }
        let boxed: Box<dyn StdError + Send + Sync> = Box::new(err.clone());
        match boxed.downcast_ref::<gen::Error>() {
            Some(found) if found.code() == err.code() => {}
            _ => self.fail("the error is not found through a Box<dyn Error>".into()),
        }
        if err.to_string() != format!("{}: {}", err.wire_code(), err.message()) {
            self.fail(format!("Display: got {}", err));
        }
    }

    fn payload(&mut self, got: Result<Option<gen::Error>, gen::InvalidPayloadError>) {
        let e = self.expect;
        if e.get("ok") == Some(&Value::Bool(false)) {
            match got {
                Err(problem) => {
                    let field = e.get("field").and_then(Value::as_str);
                    if Some(problem.field()) != field {
                        let message = problem.message();
                        self.fail(format!(
                            "field: got {:?}, want {:?} ({})",
                            problem.field(),
                            field,
                            message
                        ));
                    }
                    // Issue 30 §1: a message the same in every language.
                    if let Some(want) = e.get("message").and_then(Value::as_str) {
                        if problem.message() != want {
                            self.fail(format!(
                                "message: got {:?}, want {:?}",
                                problem.message(),
                                want
                            ));
                        }
                    }
                }
                Ok(found) => self.fail(format!("want an InvalidPayloadError, got {:?}", found)),
            }
            return;
        }
        let found = match got {
            Ok(found) => found,
            Err(problem) => {
                return self.fail(format!("refused: {} ({})", problem, problem.field()))
            }
        };
        if e.get("none") == Some(&Value::Bool(true)) {
            if let Some(found) = found {
                self.fail(format!("want none, got {:?}", found));
            }
            return;
        }
        match found {
            Some(err) => self.check_accepted(&err),
            None => self.fail("want an error, got none".into()),
        }
    }
}

fn run(kind: &str, input: &Value, text: &str, run: &mut Run<'_>) {
    match kind {
        "from_payload" => run.payload(gen::from_payload(text).map(Some)),
        "error_from_event" => run.payload(gen::error_from_event(text)),
        "lookup" => {
            let code = code_text(Some(input));
            let want = code_text(run.expect.get("code"));
            let got = gen::lookup(&code);
            if got.as_str() != want {
                run.fail(format!("lookup: got {:?}, want {}", got, want));
            }
            let retryable = run.expect.get("retryable").and_then(Value::as_bool);
            if Some(gen::is_retryable(&code)) != retryable {
                run.fail(format!("is_retryable: got {}", gen::is_retryable(&code)));
            }
        }
        "to_error" => {
            let err = gen::Error::wrap_value(input.clone());
            run.check_common(&err);
            let kept = err
                .source()
                .and_then(|s| s.downcast_ref::<gen::WrappedValue>());
            if !kept.map_or(false, |k| same(&k.value, input)) {
                run.fail(format!("the value is not kept: {:?}", err.source()));
            }
        }
        "construct" => {
            let code = gen::Code::from_wire(&code_text(input.get("code")));
            let details = input
                .get("details")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let err = match gen::Error::new(code, details) {
                Ok(err) => err,
                Err(problem) => return run.fail(format!("Error::new: {}", problem)),
            };
            run.check_mapped(&err);
            run.check_code(&err);
            if Some(err.message()) != run.expect.get("message").and_then(Value::as_str) {
                run.fail(format!("message: got {:?}", err.message()));
            }
            let details = Value::Object(err.details().clone());
            let want = run.expect.get("details").cloned().unwrap_or(Value::Null);
            if !same(&details, &want) {
                run.fail(format!("details: got {}, want {}", details, want));
            }
        }
        "retry_after" => {
            let err = match gen::from_payload(text) {
                Ok(err) => err,
                Err(problem) => return run.fail(format!("from_payload: {}", problem)),
            };
            run.check_code(&err);
            let want = run.expect.get("retry_after").and_then(Value::as_f64);
            let want = want.map(Duration::from_secs_f64);
            if err.retry_after() != want {
                run.fail(format!(
                    "retry_after: got {:?}, want {:?}",
                    err.retry_after(),
                    want
                ));
            }
        }
        other => run.fail(format!("no runner for kind {:?}", other)),
    }
}

/// Runs every vector of one file; the failures, and how many ran.
fn run_file(path: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let text = std::fs::read_to_string(path).expect("the vectors");
    let doc: Value = serde_json::from_str(&text).expect("the vectors as JSON");
    let kinds = doc["kinds"].as_object().expect("kinds");
    for kind in kinds.keys() {
        if !KINDS.contains(&kind.as_str()) {
            failures.push(format!("FAIL kinds: no runner for kind {:?}", kind));
        }
    }
    let vectors = doc["vectors"].as_array().expect("vectors");
    let mut ran = 0;
    for v in vectors {
        let id = v["id"].as_str().expect("id");
        let kind = v["kind"].as_str().expect("kind");
        let (input, text) = match v.get("input_json").and_then(Value::as_str) {
            Some(raw) => (Value::Null, raw.to_string()),
            None => (v["input"].clone(), v["input"].to_string()),
        };
        let expect = v["expect"].as_object().expect("expect");
        let mut one = Run {
            expect,
            problems: Vec::new(),
        };
        run(kind, &input, &text, &mut one);
        ran += 1;
        for problem in one.problems {
            failures.push(format!("FAIL {}: {}", id, problem));
        }
    }
    (ran, vectors.len())
}

#[test]
fn every_vector() {
    let here = env!("CARGO_MANIFEST_DIR");
    println!("CASE {}", include_str!("../case.txt").trim());
    let paths = match std::env::var("TAXOGEN_VECTORS") {
        Ok(path) => vec![path],
        Err(_) => ["vectors.json", "bodies.json"]
            .iter()
            .map(|name| format!("{}/{}", here, name))
            .filter(|path| std::path::Path::new(path).exists())
            .collect(),
    };
    let mut failures = Vec::new();
    let mut all = true;
    for path in &paths {
        let (ran, total) = run_file(path, &mut failures);
        let name = path.rsplit('/').next().unwrap_or(path);
        println!("RAN {} of {} in {}", ran, total, name);
        all = all && ran > 0 && ran == total;
    }
    for failure in &failures {
        println!("{}", failure);
    }
    assert!(all && !paths.is_empty(), "not every vector ran");
    assert!(failures.is_empty(), "{} failures", failures.len());
}
