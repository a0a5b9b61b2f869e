//! The runtime of a taxogen-generated Rust crate: the code that is the same for
//! every taxonomy (the `Error` type, payload decoding with its validation and
//! limits, details field checks, message templates, wrapping). The crate's
//! `lib.rs` holds the taxonomy's `Code` and `Domain` enums and its tables
//! (`tables.json`) and re-exports what is public here.

use std::collections::HashMap;
use std::error::Error as StdError;
use std::fmt;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Number, Value};

use crate::{Code, Domain};

/// The longest code a payload may carry, in characters.
pub const MAX_CODE_LENGTH: usize = 256;
/// How deep details may nest (the details object is depth 1).
pub const MAX_DETAILS_DEPTH: usize = 64;
/// How many values details may hold in all.
pub const MAX_DETAILS_NODES: usize = 100_000;
/// The largest integer code, either side of 0 (JavaScript's safe integers).
pub const MAX_WIRE_INTEGER: i64 = (1 << 53) - 1;

/// A JSON object, as details are held.
pub type Object = Map<String, Value>;

/// The cause an error wraps.
pub type Cause = Arc<dyn StdError + Send + Sync>;

#[derive(Deserialize)]
struct Shape {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    r#enum: Vec<String>,
    #[serde(default)]
    minimum: Option<f64>,
    #[serde(default)]
    maximum: Option<f64>,
    /// An array's items (issue 30 §7: a scalar or an object).
    #[serde(default)]
    items: Option<Box<Shape>>,
    /// A typed object's declared members (issue 30 §7); None: free-form.
    #[serde(default)]
    fields: Option<Vec<Field>>,
}

#[derive(Deserialize)]
struct Field {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    r#enum: Vec<String>,
    #[serde(default)]
    minimum: Option<f64>,
    #[serde(default)]
    maximum: Option<f64>,
    #[serde(default)]
    required: bool,
    #[serde(default)]
    items: Option<Shape>,
    #[serde(default)]
    default: Option<Value>,
    /// A constant field's value as messages show it (issue 30 §7), its
    /// `default` the value itself: absent or equal on decoding, filled in, and
    /// written on every payload; None when the field is no constant.
    #[serde(default)]
    r#const: Option<String>,
    /// A typed object's declared members (issue 30 §7); None: free-form.
    #[serde(default)]
    fields: Option<Vec<Field>>,
}

/// What a value must be: a field's shape or an item's, borrowed (serde's
/// flatten cannot read numbers under arbitrary_precision, so a field spells
/// its shape out).
#[derive(Clone, Copy)]
struct ShapeRef<'a> {
    kind: &'a str,
    r#enum: &'a [String],
    minimum: Option<f64>,
    maximum: Option<f64>,
    items: Option<&'a Shape>,
    fields: Option<&'a [Field]>,
}

impl Shape {
    fn view(&self) -> ShapeRef<'_> {
        ShapeRef {
            kind: &self.kind,
            r#enum: &self.r#enum,
            minimum: self.minimum,
            maximum: self.maximum,
            items: self.items.as_deref(),
            fields: self.fields.as_deref(),
        }
    }
}

impl Field {
    fn view(&self) -> ShapeRef<'_> {
        ShapeRef {
            kind: &self.kind,
            r#enum: &self.r#enum,
            minimum: self.minimum,
            maximum: self.maximum,
            items: self.items.as_ref(),
            fields: self.fields.as_deref(),
        }
    }
}

#[derive(Deserialize)]
struct Piece {
    text: String,
    #[serde(default)]
    field: Option<String>,
}

#[derive(Deserialize)]
struct Spec {
    code: String,
    domain: usize,
    retryable: bool,
    meaning: String,
    #[serde(default)]
    fields: Vec<Field>,
    #[serde(default)]
    template: Option<Vec<Piece>>,
    #[serde(default)]
    http_status: Option<u16>,
    #[serde(default)]
    grpc_status: Option<String>,
    #[serde(default)]
    throttling: bool,
    #[serde(default)]
    doc_url: Option<String>,
    #[serde(default)]
    retry_after_field: Option<String>,
}

#[derive(Deserialize)]
struct Match {
    domain: usize,
    /// The code whose class an unknown code in it takes (None: none).
    code: Option<usize>,
    /// Whether such a code keeps its identity (issue 30 §3: the domain says
    /// fallback: null, or nothing lends it a code).
    #[serde(default)]
    keeps: bool,
    #[serde(default)]
    prefix: String,
    #[serde(default)]
    low: i64,
    #[serde(default)]
    high: i64,
    meaning: String,
    #[serde(default)]
    http_status: Option<u16>,
    #[serde(default)]
    grpc_status: Option<String>,
}

#[derive(Deserialize)]
struct PayloadMap {
    code: String,
    message: String,
    #[serde(default)]
    retryable: String,
    #[serde(default)]
    details: String,
    details_type: String,
    #[serde(default)]
    envelope: String,
    #[serde(default)]
    always_details: bool,
    #[serde(default)]
    uri: Option<(String, String)>,
    #[serde(default)]
    message_required: bool,
    #[serde(default)]
    status: String,
    #[serde(default)]
    exact_message: bool,
    #[serde(default)]
    constants: Vec<(String, Value)>,
    #[serde(default)]
    outside: bool,
}

#[derive(Deserialize)]
struct Tables {
    specs: Vec<Spec>,
    domains: Vec<String>,
    parents: Vec<Option<usize>>,
    /// None: fallback: null (issue 30 §3), an unknown code keeps its identity.
    fallback: Option<usize>,
    wrap: usize,
    /// What such an error means (the taxonomy's title), and whether it is
    /// retryable where its payload does not say: false, true or by_status.
    #[serde(default)]
    unknown_meaning: String,
    #[serde(default)]
    unknown_retryable: String,
    /// lower_snake, upper_snake, as_written, wire, empty_or_wire or integer.
    case: String,
    #[serde(default)]
    events: Vec<(String, String)>,
    #[serde(default)]
    matches: Vec<Match>,
    #[serde(default)]
    payload: Option<PayloadMap>,
    #[serde(default)]
    aliases: Vec<(String, usize)>,
    #[serde(skip)]
    by_wire: HashMap<String, usize>,
}

/// The taxonomy's tables, read from `tables.json` on first use.
fn tables() -> &'static Tables {
    static TABLES: AtomicPtr<Tables> = AtomicPtr::new(std::ptr::null_mut());
    let found = TABLES.load(Ordering::Acquire);
    if !found.is_null() {
        // SAFETY: a pointer stored here is a leaked Box, never freed.
        return unsafe { &*found };
    }
    let mut made: Tables = serde_json::from_str(crate::TABLES).expect("tables.json");
    for (i, spec) in made.specs.iter().enumerate() {
        made.by_wire.insert(spec.code.clone(), i);
    }
    for (alias, i) in &made.aliases {
        made.by_wire.insert(alias.clone(), *i);
    }
    made.matches.sort_by(|a, b| {
        let by_prefix = b.prefix.len().cmp(&a.prefix.len());
        by_prefix.then((a.high - a.low).cmp(&(b.high - b.low)))
    });
    let made = Box::into_raw(Box::new(made));
    let null = std::ptr::null_mut();
    match TABLES.compare_exchange(null, made, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: made is the leaked Box just stored.
        Ok(_) => unsafe { &*made },
        Err(other) => {
            // SAFETY: made was never shared; other is a leaked Box.
            unsafe {
                drop(Box::from_raw(made));
                &*other
            }
        }
    }
}

/// The wire code of the known code at `index` (its place in the taxonomy).
pub(crate) fn wire_of(index: usize) -> &'static str {
    &tables().specs[index].code
}

/// The key of the domain at `index`.
pub(crate) fn domain_key(index: usize) -> &'static str {
    &tables().domains[index]
}

/// The known code a wire code (or alias) spells, if any.
pub(crate) fn index_of(wire: &str) -> Option<usize> {
    tables().by_wire.get(wire).copied()
}

impl Tables {
    fn integer(&self) -> bool {
        self.case == "integer"
    }

    /// Whether `code` (a string code) is well formed.
    fn well_formed(&self, code: &str) -> bool {
        let printable = |c: char| ('!'..='~').contains(&c);
        let words = |upper: bool| {
            let first = code.chars().next();
            let letter = |c: char| {
                if upper {
                    c.is_ascii_uppercase()
                } else {
                    c.is_ascii_lowercase()
                }
            };
            first.map_or(false, letter)
                && code
                    .split('_')
                    .all(|w| !w.is_empty() && w.chars().all(|c| letter(c) || c.is_ascii_digit()))
        };
        match self.case.as_str() {
            "lower_snake" => words(false),
            "upper_snake" => words(true),
            "as_written" => {
                code.chars().all(printable)
                    && code
                        .chars()
                        .find(|c| c.is_ascii_alphanumeric())
                        .map_or(false, |c| c.is_ascii_alphabetic())
            }
            "wire" => !code.is_empty() && code.chars().all(printable),
            _ => code.chars().all(printable),
        }
    }

    /// The known code an unknown code is treated as (None: it keeps its
    /// identity, the taxonomy having no fallback), and the match it fell in.
    fn treated(&self, code: &str) -> (Option<usize>, Option<usize>) {
        match self.find_match(code) {
            Some(m) => (self.matches[m].code.or(self.fallback), Some(m)),
            None => (self.fallback, None),
        }
    }

    /// Whether an unknown code that fell in `matched` keeps its identity.
    fn kept(&self, matched: Option<usize>) -> bool {
        match matched {
            Some(m) => self.matches[m].keeps,
            None => self.fallback.is_none(),
        }
    }

    /// Whether an unknown code that keeps its identity, received with an
    /// HTTP status (or none), is retryable where its payload does not say.
    fn retryable_unknown(&self, status: Option<u16>) -> bool {
        match self.unknown_retryable.as_str() {
            "by_status" => status.map_or(false, |s| (500..=599).contains(&s)),
            rule => rule == "true",
        }
    }

    /// The match an unknown code falls in, if any.
    fn find_match(&self, code: &str) -> Option<usize> {
        let number = code.parse::<i64>().ok();
        self.matches.iter().position(|m| {
            if self.integer() {
                m.prefix.is_empty() && number.map_or(false, |n| m.low <= n && n <= m.high)
            } else {
                !m.prefix.is_empty() && code.starts_with(&m.prefix)
            }
        })
    }
}

/// Why a payload was refused: `field` names the bad field ("payload", "code",
/// "message", "retryable", "details", "details.<name>", "event" or a member of
/// the taxonomy's payload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidPayloadError {
    field: String,
    message: String,
}

impl InvalidPayloadError {
    /// The bad field.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong, the same words in every language.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InvalidPayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl StdError for InvalidPayloadError {}

fn invalid(field: &str, message: String) -> InvalidPayloadError {
    InvalidPayloadError {
        field: field.to_string(),
        message,
    }
}

/// The cause `Error::wrap_value` gives a value that is not an error.
#[derive(Debug, Clone, PartialEq)]
pub struct WrappedValue {
    /// The value, as JSON.
    pub value: Value,
}

impl fmt::Display for WrappedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "non-error value: {}", self.value)
    }
}

impl StdError for WrappedValue {}

/// An error of the taxonomy.
#[derive(Debug, Clone)]
pub struct Error {
    code: Code,
    /// None: an unknown code that keeps its identity (no fallback).
    spec: Option<usize>,
    wire_code: String,
    message: String,
    retryable: bool,
    details: Object,
    data: Option<Value>,
    cause: Option<Cause>,
    message_absent: bool,
    outside: Option<Object>,
    matched: Option<usize>,
    status: Option<u16>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.wire_code, self.message)
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.cause {
            Some(cause) => Some(cause.as_ref()),
            None => None,
        }
    }
}

impl Error {
    fn spec_of(&self) -> Option<&'static Spec> {
        self.spec.map(|i| &tables().specs[i])
    }

    fn matched_of(&self) -> Option<&'static Match> {
        self.matched.map(|i| &tables().matches[i])
    }

    /// An error of `code` with these details, checked as `from_payload` checks
    /// a received error's; the omitted optional fields' defaults filled in and
    /// the message rendered from the template (else the meaning).
    pub fn new(code: Code, details: Object) -> Result<Error, InvalidPayloadError> {
        let t = tables();
        if let (None, None, Code::Unrecognized(wire)) = (code.index(), t.fallback, &code) {
            // No fallback (issue 30 §3): a well-formed unknown code is a root
            // error of its own.
            return Error::root(t, wire, details);
        }
        let spec = match code.index() {
            Some(index) => index,
            None => {
                let message = format!(
                    "code: {} is not a code of the taxonomy",
                    quote(code.as_str())
                );
                return Err(invalid("code", message));
            }
        };
        let details = Value::Object(details);
        if let Some(problem) = details_problem(&details, "details") {
            return Err(invalid("details", problem));
        }
        let details = match details {
            Value::Object(map) => map,
            _ => Object::new(),
        };
        fields_problem(&tables().specs[spec].fields, &details)?;
        Ok(Error::build(spec, details))
    }

    /// An error of an unknown code of a taxonomy without a fallback.
    fn root(t: &Tables, wire: &str, details: Object) -> Result<Error, InvalidPayloadError> {
        let well_formed = if t.integer() {
            let n = wire
                .parse::<i64>()
                .ok()
                .filter(|n| n.abs() <= MAX_WIRE_INTEGER);
            n.map_or(false, |n| n.to_string() == wire)
        } else {
            wire.chars().count() <= MAX_CODE_LENGTH && t.well_formed(wire)
        };
        if !well_formed {
            let message = format!("code: {} is not a well-formed error code", quote(wire));
            return Err(invalid("code", message));
        }
        let details = Value::Object(details);
        if let Some(problem) = details_problem(&details, "details") {
            return Err(invalid("details", problem));
        }
        Ok(Error {
            code: Code::Unrecognized(wire.to_string()),
            spec: None,
            wire_code: wire.to_string(),
            message: t.unknown_meaning.clone(),
            retryable: t.unknown_retryable == "true",
            details: match details {
                Value::Object(map) => map,
                _ => Object::new(),
            },
            data: None,
            cause: None,
            message_absent: false,
            outside: None,
            matched: None,
            status: None,
        })
    }

    /// An error of the known code at `spec` with these (declared) details, the
    /// omitted optional fields' defaults filled in, its message rendered.
    pub(crate) fn build(spec: usize, mut details: Object) -> Error {
        let t = tables();
        let s = &t.specs[spec];
        for field in &s.fields {
            if let Some(default) = &field.default {
                // A constant field holds its constant whatever a typed
                // constructor was given (issue 30 §7): it is fixed for the code.
                if field.r#const.is_some() || !details.contains_key(&field.name) {
                    details.insert(field.name.clone(), default.clone());
                }
            }
        }
        Error {
            code: Code::known(spec),
            spec: Some(spec),
            wire_code: s.code.clone(),
            message: render(s, &details),
            retryable: s.retryable,
            details,
            data: None,
            cause: None,
            message_absent: false,
            outside: None,
            matched: None,
            status: None,
        }
    }

    /// The wrap code's error with `cause` as its source; an `Error` cause is
    /// itself.
    pub fn wrap(cause: Box<dyn StdError + Send + Sync>) -> Error {
        let cause = match cause.downcast::<Error>() {
            Ok(itself) => return *itself,
            Err(other) => other,
        };
        let message = cause.to_string();
        let mut e = Error::build(tables().wrap, Object::new());
        e.message = message;
        e.cause = Some(Arc::from(cause));
        e
    }

    /// The wrap code's error with a `WrappedValue` (a value that is no error,
    /// as JSON) as its source.
    pub fn wrap_value(value: Value) -> Error {
        let cause = WrappedValue { value };
        let mut e = Error::build(tables().wrap, Object::new());
        e.message = cause.to_string();
        e.cause = Some(Arc::new(cause));
        e
    }

    /// The code the error is treated as: its own, else (a code the taxonomy
    /// does not know) the code of the domain whose match it falls in, else the
    /// fallback code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The code as received (or built), which `to_payload` writes.
    pub fn wire_code(&self) -> &str {
        &self.wire_code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the message was absent from the payload (the taxonomy says
    /// `message_required: false`): `to_payload` then leaves it out.
    pub fn message_absent(&self) -> bool {
        self.message_absent
    }

    /// Whether the error may be retried, as received or as its code says.
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }

    /// The details (empty where there are none).
    pub fn details(&self) -> &Object {
        &self.details
    }

    /// The details where they are not always an object (`details_type` array
    /// or any): the JSON value as received.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }

    /// The members received beside the envelope, or without one those the
    /// mapping does not name (`outside: keep`).
    pub fn outside(&self) -> Option<&Object> {
        self.outside.as_ref()
    }

    /// The details decoded as a details struct of the crate.
    pub fn details_as<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_value(Value::Object(self.details.clone()))
    }

    /// The domain of the error's code (an unknown code's: the domain it is
    /// treated as; None for an unknown code that keeps its identity outside
    /// every domain's match, with no fallback).
    pub fn domain(&self) -> Option<Domain> {
        match (self.matched_of(), self.spec_of()) {
            (Some(m), _) => Some(Domain::known(m.domain)),
            (None, Some(spec)) => Some(Domain::known(spec.domain)),
            (None, None) => None,
        }
    }

    /// Whether the error's domain is `domain` or one below it.
    pub fn in_domain(&self, domain: Domain) -> bool {
        let t = tables();
        let mut at = self.domain().map(|d| d.index());
        while let Some(i) = at {
            if i == domain.index() {
                return true;
            }
            at = t.parents[i];
        }
        false
    }

    /// What the taxonomy says the error's code means.
    pub fn meaning(&self) -> &'static str {
        match (self.matched_of(), self.spec_of()) {
            (Some(m), _) => &m.meaning,
            (None, Some(spec)) => &spec.meaning,
            (None, None) => &tables().unknown_meaning,
        }
    }

    /// The error's own HTTP status: received, else given by
    /// `with_http_status`, else its code's (None where the taxonomy gives none).
    pub fn http_status(&self) -> Option<u16> {
        if self.status.is_some() {
            return self.status;
        }
        match (self.matched_of(), self.spec_of()) {
            (Some(m), _) => m.http_status,
            (None, spec) => spec.and_then(|s| s.http_status),
        }
    }

    /// The canonical gRPC status name its code maps to.
    pub fn grpc_status(&self) -> Option<&'static str> {
        match (self.matched_of(), self.spec_of()) {
            (Some(m), _) => m.grpc_status.as_deref(),
            (None, spec) => spec.and_then(|s| s.grpc_status.as_deref()),
        }
    }

    /// Whether callers must back off before they retry.
    pub fn throttling(&self) -> bool {
        self.spec_of().map_or(false, |s| s.throttling)
    }

    /// The documentation link of its code.
    pub fn doc_url(&self) -> Option<&'static str> {
        self.spec_of().and_then(|s| s.doc_url.as_deref())
    }

    /// When to retry: the details field the taxonomy names for its code
    /// (`retry_after:`), in seconds; None where it names none or the details
    /// hold no number there (a negative number is zero).
    pub fn retry_after(&self) -> Option<Duration> {
        let field = self.spec_of()?.retry_after_field.as_ref()?;
        let seconds = match self.details.get(field) {
            Some(Value::Number(n)) => number(n)?,
            _ => return None,
        };
        if seconds.is_nan() {
            return None;
        }
        Some(Duration::from_secs_f64(seconds.clamp(0.0, u64::MAX as f64)))
    }

    /// A copy with another message.
    pub fn with_message(mut self, message: impl Into<String>) -> Error {
        self.message = message.into();
        self.message_absent = false;
        self
    }

    /// A copy with its own HTTP status, from 100 to 599 (else it panics).
    pub fn with_http_status(mut self, status: u16) -> Error {
        assert!(
            (100..=599).contains(&status),
            "with_http_status: expected an HTTP status from 100 to 599, got {}",
            status
        );
        self.status = Some(status);
        self
    }

    /// A copy that wraps `cause` (its `source()`).
    pub fn with_cause(mut self, cause: impl StdError + Send + Sync + 'static) -> Error {
        self.cause = Some(Arc::new(cause));
        self
    }

    /// The wire payload as a JSON value.
    pub fn to_value(&self) -> Value {
        let t = tables();
        if let Some(p) = &t.payload {
            return self.mapped(t, p);
        }
        let mut body = Object::new();
        body.insert("code".into(), self.wire_value(t));
        body.insert("message".into(), Value::String(self.message.clone()));
        body.insert("retryable".into(), Value::Bool(self.retryable));
        body.insert("details".into(), Value::Object(self.details.clone()));
        Value::Object(body)
    }

    /// The wire payload as JSON text.
    pub fn to_payload(&self) -> String {
        self.to_value().to_string()
    }

    fn wire_value(&self, t: &Tables) -> Value {
        if t.integer() {
            if let Ok(n) = self.wire_code.parse::<i64>() {
                return Value::Number(n.into());
            }
        }
        Value::String(self.wire_code.clone())
    }

    fn mapped(&self, t: &Tables, p: &PayloadMap) -> Value {
        let mut body = Object::new();
        let mut outer = Object::new();
        if p.outside {
            // Beside the envelope, or without one in the error object itself,
            // where the error's own members (inserted later) win.
            if let Some(outside) = &self.outside {
                if p.envelope.is_empty() {
                    body.extend(outside.clone());
                } else {
                    outer.extend(outside.clone());
                }
            }
        }
        for (name, value) in &p.constants {
            outer.insert(name.clone(), value.clone());
        }
        if let Some((prefix, suffix)) = &p.uri {
            let kept = match self.details.get(&p.code) {
                Some(Value::String(s)) if p.details == "*" => s.clone(),
                _ => format!("{}{}{}", prefix, percent_encode(&self.wire_code), suffix),
            };
            body.insert(p.code.clone(), Value::String(kept));
            let title = self.meaning().to_string();
            body.insert("title".into(), Value::String(title));
            let status = self.http_status().map_or(Value::Null, Value::from);
            body.insert("status".into(), status);
        } else {
            body.insert(p.code.clone(), self.wire_value(t));
        }
        if !(p.exact_message && self.message_absent) {
            body.insert(p.message.clone(), Value::String(self.message.clone()));
        }
        if !p.retryable.is_empty() {
            body.insert(p.retryable.clone(), Value::Bool(self.retryable));
        }
        if let (false, Some(status)) = (p.status.is_empty(), self.http_status()) {
            body.insert(p.status.clone(), Value::from(status));
        }
        if p.details == "*" {
            for (key, member) in &self.details {
                if !p.named(key) {
                    body.insert(key.clone(), member.clone());
                }
            }
        } else if !p.details.is_empty() {
            let (value, empty) = if p.details_type == "object" {
                (Value::Object(self.details.clone()), self.details.is_empty())
            } else {
                let value = self.data.clone().unwrap_or(Value::Null);
                let empty = match &value {
                    Value::Null => true,
                    Value::Array(a) => a.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    _ => false,
                };
                (value, empty)
            };
            if p.always_details || !empty {
                body.insert(p.details.clone(), value);
            }
        }
        if p.envelope.is_empty() {
            for (key, value) in outer {
                body.insert(key, value);
            }
            return Value::Object(body);
        }
        outer.insert(p.envelope.clone(), Value::Object(body));
        Value::Object(outer)
    }
}

impl PayloadMap {
    /// Whether key is a member the payload map names (not a details member).
    fn named(&self, key: &str) -> bool {
        key == self.code
            || key == self.message
            || (!self.retryable.is_empty() && key == self.retryable)
            || (!self.status.is_empty() && key == self.status)
            || (self.envelope.is_empty() && self.constants.iter().any(|(n, _)| n == key))
    }
}

/// An error of the known code at `spec` with a details struct's fields (a crate
/// whose codes declare no details has no use for it).
#[allow(dead_code)]
pub(crate) fn build<T: serde::Serialize>(spec: usize, details: &T) -> Error {
    match serde_json::to_value(details) {
        Ok(Value::Object(map)) => Error::build(spec, map),
        _ => Error::build(spec, Object::new()),
    }
}

/// Reads one JSON value (numbers kept as written); nothing may follow.
fn decode(data: &str) -> Result<Value, String> {
    serde_json::from_str(data).map_err(|e| e.to_string())
}

/// Decodes and validates a JSON error payload.
pub fn from_payload(data: &str) -> Result<Error, InvalidPayloadError> {
    match decode(data) {
        Ok(value) => from_value(value),
        Err(e) => Err(invalid("payload", format!("payload: not JSON ({})", e))),
    }
}

/// The error an event carries where the events table says: None when its type
/// is not in the table or nothing is there.
pub fn error_from_event(data: &str) -> Result<Option<Error>, InvalidPayloadError> {
    let value = match decode(data) {
        Ok(value) => value,
        Err(e) => return Err(invalid("event", format!("event: not JSON ({})", e))),
    };
    let event = match value {
        Value::Object(event) => event,
        other => {
            let message = format!("event: expected an object, got {}", kind(Some(&other)));
            return Err(invalid("event", message));
        }
    };
    let location = match event.get("type") {
        Some(Value::String(k)) => match tables().events.iter().find(|(t, _)| t == k) {
            Some((_, location)) => location,
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let mut found = Value::Object(event);
    for part in location.split('.') {
        found = match found {
            Value::Object(mut object) => object.remove(part).unwrap_or(Value::Null),
            _ => return Ok(None),
        };
    }
    if found.is_null() {
        return Ok(None);
    }
    from_value(found).map(Some)
}

/// The events table: event type → where its error sits.
pub fn events() -> Vec<(&'static str, &'static str)> {
    let t = tables();
    t.events
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The code a received code is treated as: itself if the taxonomy knows it,
/// else that of the domain whose match it falls in, else the fallback code.
/// With no fallback (`fallback: null`), an unknown code outside every match
/// that names a code keeps its identity: `Code::Unrecognized`.
pub fn lookup(code: &str) -> Code {
    let t = tables();
    if let Some(index) = index_of(code) {
        return Code::known(index);
    }
    let (spec, matched) = t.treated(code);
    code_of(if t.kept(matched) { None } else { spec }, code)
}

/// Whether `lookup(code)` is retryable.
pub fn is_retryable(code: &str) -> bool {
    let t = tables();
    match lookup(code).index() {
        Some(spec) => t.specs[spec].retryable,
        None => t.unknown_retryable == "true",
    }
}

/// The Code of an error of the known code at `spec`, else the received one.
fn code_of(spec: Option<usize>, wire: &str) -> Code {
    match spec {
        Some(spec) => Code::known(spec),
        None => Code::Unrecognized(wire.to_string()),
    }
}

fn get<'a>(object: &'a Object, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|v| !v.is_null())
}

fn from_value(value: Value) -> Result<Error, InvalidPayloadError> {
    let t = tables();
    if let Some(p) = &t.payload {
        return from_mapped(t, p, value);
    }
    let payload = match value {
        Value::Object(payload) => payload,
        other => {
            let message = format!("payload: expected an object, got {}", kind(Some(&other)));
            return Err(invalid("payload", message));
        }
    };
    let code = read_code(t, get(&payload, "code"), "code")?;
    let known = index_of(&code);
    if known.is_none() {
        check_form(t, &code, "code")?;
    }
    let message = match get(&payload, "message") {
        Some(Value::String(s)) => s.clone(),
        other => {
            let message = format!("message: expected a string, got {}", kind(other));
            return Err(invalid("message", message));
        }
    };
    let retryable = match get(&payload, "retryable") {
        Some(Value::Bool(b)) => *b,
        other => {
            let message = format!("retryable: expected a boolean, got {}", kind(other));
            return Err(invalid("retryable", message));
        }
    };
    let mut details = match get(&payload, "details") {
        None => Object::new(),
        Some(raw @ Value::Object(map)) => {
            if let Some(problem) = details_problem(raw, "details") {
                return Err(invalid("details", problem));
            }
            map.clone()
        }
        other => {
            let message = format!("details: expected an object, got {}", kind(other));
            return Err(invalid("details", message));
        }
    };
    let (spec, matched) = match known {
        Some(index) => {
            fields_problem(&t.specs[index].fields, &details)?;
            with_constants(&t.specs[index].fields, &mut details);
            (Some(index), None)
        }
        None => t.treated(&code),
    };
    let keeps = known.is_none() && t.kept(matched);
    Ok(Error {
        code: code_of(if keeps { None } else { spec }, &code),
        spec,
        wire_code: code,
        message,
        retryable,
        details,
        data: None,
        cause: None,
        message_absent: false,
        outside: None,
        matched,
        status: None,
    })
}

/// Refuses a string code the taxonomy does not know that is too long or ill
/// formed.
fn check_form(t: &Tables, code: &str, name: &str) -> Result<(), InvalidPayloadError> {
    if t.integer() {
        return Ok(());
    }
    let n = code.chars().count();
    if n > MAX_CODE_LENGTH {
        let message = format!(
            "{}: longer than {} characters ({})",
            name, MAX_CODE_LENGTH, n
        );
        return Err(invalid(name, message));
    }
    if !t.well_formed(code) {
        let message = format!("{}: {} is not a well-formed error code", name, quote(code));
        return Err(invalid(name, message));
    }
    Ok(())
}

/// A payload's code as text: a string as it is, or, where codes are integers,
/// an integer (5.0 too) within MAX_WIRE_INTEGER either side of 0.
fn read_code(t: &Tables, raw: Option<&Value>, name: &str) -> Result<String, InvalidPayloadError> {
    if !t.integer() {
        return match raw {
            Some(Value::String(s)) => Ok(s.clone()),
            other => {
                let message = format!("{}: expected a string, got {}", name, kind(other));
                Err(invalid(name, message))
            }
        };
    }
    let text = match raw {
        Some(Value::Number(n)) => n.to_string(),
        other => {
            let message = format!("{}: expected an integer, got {}", name, kind(other));
            return Err(invalid(name, message));
        }
    };
    let value = match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v == v.trunc() => v,
        _ => {
            let message = format!("{}: expected an integer, got a number", name);
            return Err(invalid(name, message));
        }
    };
    if value.abs() > MAX_WIRE_INTEGER as f64 {
        let message = format!(
            "{}: {} is out of range (at most {} either side of 0)",
            name, text, MAX_WIRE_INTEGER
        );
        return Err(invalid(name, message));
    }
    Ok((value as i64).to_string())
}

/// Text with every byte but RFC 3986's unreserved characters as %XX.
fn percent_encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{:02X}", b));
        }
    }
    out
}

/// The code a problem's type names, or None.
fn uri_code(t: &Tables, prefix: &str, suffix: &str, text: &str) -> Option<String> {
    let fixed = prefix.len() + suffix.len();
    if text.len() < fixed || text.len() > fixed + 12 * MAX_CODE_LENGTH {
        return None;
    }
    let middle = text.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let bytes = middle.as_bytes();
    let mut decoded = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            decoded.push(bytes[i]);
            i += 1;
            continue;
        }
        let hex = middle.get(i + 1..i + 3)?;
        decoded.push(u8::from_str_radix(hex, 16).ok()?);
        i += 3;
    }
    let code = String::from_utf8(decoded).ok()?;
    if code.is_empty() || percent_encode(&code) != middle {
        return None;
    }
    if t.integer() {
        let digits = code.strip_prefix('-').unwrap_or(&code);
        let canonical = !digits.is_empty()
            && digits.len() <= 16
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        let n = code.parse::<i64>().ok()?;
        return (canonical && n.abs() <= MAX_WIRE_INTEGER).then_some(code);
    }
    (code.chars().count() <= MAX_CODE_LENGTH && t.well_formed(&code)).then_some(code)
}

fn from_mapped(t: &Tables, p: &PayloadMap, value: Value) -> Result<Error, InvalidPayloadError> {
    let payload = match value {
        Value::Object(payload) => payload,
        other => {
            let message = format!("payload: expected an object, got {}", kind(Some(&other)));
            return Err(invalid("payload", message));
        }
    };
    for (name, constant) in &p.constants {
        if let Some(found) = get(&payload, name) {
            if !same_constant(found, constant) {
                let message = format!(
                    "{}: expected {}, the constant every payload carries, or none",
                    name, constant
                );
                return Err(invalid(name, message));
            }
        }
    }
    let (body, at) = if p.envelope.is_empty() {
        (&payload, String::new())
    } else {
        match get(&payload, &p.envelope) {
            Some(Value::Object(inner)) => (inner, format!("{}.", p.envelope)),
            other => {
                let message = format!("{}: expected an object, got {}", p.envelope, kind(other));
                return Err(invalid(&p.envelope, message));
            }
        }
    };
    let code_name = format!("{}{}", at, p.code);
    let raw = get(body, &p.code);
    let (mut code, mut has_code, mut kept) = (String::new(), true, None);
    if let Some((prefix, suffix)) = &p.uri {
        match raw {
            None => has_code = false,
            Some(Value::String(text)) => match uri_code(t, prefix, suffix, text) {
                Some(found) => code = found,
                None => {
                    has_code = false;
                    kept = Some(text.clone());
                }
            },
            other => {
                let message = format!("{}: expected a string, got {}", code_name, kind(other));
                return Err(invalid(&code_name, message));
            }
        }
    } else {
        code = read_code(t, raw, &code_name)?;
        if index_of(&code).is_none() {
            check_form(t, &code, &code_name)?;
        }
    }
    let message_name = format!("{}{}", at, p.message);
    let absent = get(body, &p.message).is_none();
    let mut message = match get(body, &p.message) {
        Some(Value::String(s)) => s.clone(),
        None if !p.message_required => String::new(),
        other => {
            let message = format!("{}: expected a string, got {}", message_name, kind(other));
            return Err(invalid(&message_name, message));
        }
    };
    let mut retryable = None;
    if !p.retryable.is_empty() {
        match get(body, &p.retryable) {
            Some(Value::Bool(b)) => retryable = Some(*b),
            other => {
                let name = format!("{}{}", at, p.retryable);
                let message = format!("{}: expected a boolean, got {}", name, kind(other));
                return Err(invalid(&name, message));
            }
        }
    }
    let mut status = None;
    if let (false, Some(raw)) = (p.status.is_empty(), get(body, &p.status)) {
        let name = format!("{}{}", at, p.status);
        let wanted = "expected an HTTP status (an integer from 100 to 599), got";
        let n = match raw {
            Value::Number(n) => number(n).filter(|n| *n == n.trunc()),
            _ => None,
        };
        let n = match n {
            Some(n) => n,
            None => {
                let message = format!("{}: {} {}", name, wanted, kind(Some(raw)));
                return Err(invalid(&name, message));
            }
        };
        if !(100.0..=599.0).contains(&n) {
            let message = format!("{}: {} {}", name, wanted, js_number(n));
            return Err(invalid(&name, message));
        }
        status = Some(n as u16);
    }
    let mut details = Object::new();
    let mut data = None;
    if p.details == "*" {
        let name = if p.envelope.is_empty() {
            "payload"
        } else {
            &p.envelope
        };
        for (key, member) in body {
            if !p.named(key) {
                details.insert(key.clone(), member.clone());
            }
        }
        let whole = Value::Object(details);
        if let Some(problem) = details_problem(&whole, name) {
            return Err(invalid(name, problem));
        }
        details = match whole {
            Value::Object(map) => map,
            _ => Object::new(),
        };
        if let Some(kept) = kept {
            details.insert(p.code.clone(), Value::String(kept));
        }
    } else if !p.details.is_empty() {
        let name = format!("{}{}", at, p.details);
        if let Some(member) = get(body, &p.details) {
            let fits = match p.details_type.as_str() {
                "object" => member.is_object(),
                "array" => member.is_array(),
                _ => true,
            };
            if !fits {
                let wanted = if p.details_type == "array" {
                    "an array"
                } else {
                    "an object"
                };
                let message = format!("{}: expected {}, got {}", name, wanted, kind(Some(member)));
                return Err(invalid(&name, message));
            }
            if let Some(problem) = details_problem(member, &name) {
                return Err(invalid(&name, problem));
            }
            match member {
                Value::Object(map) if p.details_type == "object" => details = map.clone(),
                other => data = Some(other.clone()),
            }
        }
        if data.is_none() && p.details_type == "array" {
            data = Some(Value::Array(Vec::new()));
        }
    }
    let known = if has_code { index_of(&code) } else { None };
    let (spec, matched) = match known {
        Some(index) => {
            fields_problem(&t.specs[index].fields, &details)?;
            with_constants(&t.specs[index].fields, &mut details);
            (Some(index), None)
        }
        None if has_code => t.treated(&code),
        None => (t.fallback, None),
    };
    let s = spec.map(|i| &t.specs[i]);
    if !has_code {
        code = s.map_or(String::new(), |s| s.code.clone());
    }
    let fallback_meaning = match (matched, s) {
        (Some(m), _) => &t.matches[m].meaning,
        (None, Some(s)) => &s.meaning,
        (None, None) => &t.unknown_meaning,
    };
    if absent && p.exact_message {
        message = match (matched, known, s) {
            (None, Some(_), Some(s)) => absent_message(s, &details),
            _ => fallback_meaning.clone(),
        };
    } else if absent {
        message = match details.get("title") {
            Some(Value::String(title)) => title.clone(),
            _ => fallback_meaning.clone(),
        };
    }
    let mut outside = None;
    if p.outside {
        // Not kept: the envelope and the constants; without an envelope, every
        // member the mapping names (Kubernetes' metadata is kept).
        let named = [&p.code, &p.message, &p.retryable, &p.status, &p.details];
        let mut kept = Object::new();
        for (key, member) in &payload {
            let own = p.envelope.is_empty() && named.iter().any(|n| !n.is_empty() && *n == key);
            if key != &p.envelope && !own && !p.constants.iter().any(|(n, _)| n == key) {
                kept.insert(key.clone(), member.clone());
            }
        }
        let whole = Value::Object(kept);
        if let Some(problem) = details_problem(&whole, "payload") {
            return Err(invalid("payload", problem));
        }
        if let Value::Object(kept) = whole {
            outside = Some(kept);
        }
    }
    // Issue 30 §3: an unknown code that keeps its identity.
    let keeps = has_code && known.is_none() && t.kept(matched);
    let retryable = match (retryable, s) {
        (Some(given), _) => given,
        (None, _) if keeps => t.retryable_unknown(status),
        (None, Some(s)) => s.retryable,
        (None, None) => t.unknown_retryable == "true",
    };
    Ok(Error {
        code: code_of(if keeps { None } else { spec }, &code),
        spec,
        wire_code: code,
        message,
        retryable,
        details,
        data,
        cause: None,
        message_absent: absent && p.exact_message,
        outside,
        matched,
        status,
    })
}

/// Whether a received value is the constant as JSON compares them.
fn same_constant(found: &Value, constant: &Value) -> bool {
    match (found, constant) {
        (Value::Number(a), Value::Number(b)) => number(a).is_some() && number(a) == number(b),
        _ => found == constant,
    }
}

/// The message of an error received without one: its code's template over
/// the details, an omitted field's default in its place, else the meaning.
fn absent_message(spec: &Spec, details: &Object) -> String {
    let pieces = match &spec.template {
        Some(pieces) => pieces,
        None => return spec.meaning.clone(),
    };
    let mut values = Object::new();
    for field in pieces.iter().filter_map(|p| p.field.as_ref()) {
        let given = details.get(field).filter(|v| !v.is_null());
        let default = spec
            .fields
            .iter()
            .find(|f| &f.name == field)
            .and_then(|f| f.default.as_ref());
        match given.or(default) {
            Some(value) => values.insert(field.clone(), value.clone()),
            None => return spec.meaning.clone(),
        };
    }
    render(spec, &values)
}

fn render(spec: &Spec, details: &Object) -> String {
    let pieces = match &spec.template {
        Some(pieces) => pieces,
        None => return spec.meaning.clone(),
    };
    let mut out = String::new();
    for piece in pieces {
        out.push_str(&piece.text);
        if let Some(field) = &piece.field {
            out.push_str(&text(details.get(field)));
        }
    }
    out
}

/// A placeholder's value as every runtime writes it.
fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => number(n).map_or_else(|| n.to_string(), js_number),
        Some(other) => other.to_string(),
        None => "undefined".to_string(),
    }
}

/// A number as JavaScript's `String(number)` writes it.
pub(crate) fn js_number(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = n.abs();
    if (1e-6..1e21).contains(&a) {
        return format!("{}", n);
    }
    let s = format!("{:e}", n);
    match s.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => format!("{}e+{}", mantissa, exp),
        _ => s,
    }
}

/// A JSON number as a double (None when it is past a double's range).
fn number(n: &Number) -> Option<f64> {
    n.as_f64()
}

fn wanted(kind: &str) -> &'static str {
    match kind {
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean",
        "array" => "an array",
        _ => "an object",
    }
}

/// Received details (checked) with each constant field they lack filled in
/// (issue 30 §7: written on every payload).
fn with_constants(fields: &[Field], details: &mut Object) {
    for field in fields {
        if let (Some(_), Some(constant)) = (&field.r#const, &field.default) {
            if !details.contains_key(&field.name) {
                details.insert(field.name.clone(), constant.clone());
            }
        }
    }
}

fn fields_problem(fields: &[Field], details: &Object) -> Result<(), InvalidPayloadError> {
    for field in fields {
        let at = format!("details.{}", field.name);
        let value = match details.get(&field.name) {
            Some(value) => value,
            None if field.required => {
                return Err(invalid(&at, format!("{}: required, missing", at)));
            }
            None => continue,
        };
        if let (Some(shown), Some(constant)) = (&field.r#const, &field.default) {
            // Issue 30 §7: absent, or the code's constant (as JSON compares).
            if same_constant(value, constant) {
                continue;
            }
            let message = format!(
                "{}: expected {}, the constant of its code, or none",
                at, shown
            );
            return Err(invalid(&at, message));
        }
        if let Some((path, message)) = misfit(field.view(), value, &at) {
            return Err(invalid(&path, message));
        }
    }
    Ok(())
}

/// Where a value (named `at`) misfits its shape, and why: issue 30 §7, the
/// deepest member of a declared object that is missing or misfits
/// (`details.causes[1].reason`); the value itself where it misfits, or holds
/// an item that is no object, or a bad item of scalars (`details.scores`).
fn misfit(shape: ShapeRef<'_>, v: &Value, at: &str) -> Option<(String, String)> {
    if let (Some(fields), Value::Object(map)) = (shape.fields, v) {
        return members_misfit(fields, map, at);
    }
    let typed = shape.items.and_then(|items| items.fields.as_deref());
    if let (Some(fields), Value::Array(list)) = (typed, v) {
        for (i, item) in list.iter().enumerate() {
            let here = format!("{}[{}]", at, i);
            match item {
                Value::Object(map) => {
                    if let Some(found) = members_misfit(fields, map, &here) {
                        return Some(found);
                    }
                }
                other => {
                    let why = format!("{}: expected an object, got {}", here, kind(Some(other)));
                    return Some((at.to_string(), why));
                }
            }
        }
        return None;
    }
    let problem = shape_problem(shape, v)?;
    let sep = if problem.starts_with('[') { "" } else { ": " };
    Some((at.to_string(), format!("{}{}{}", at, sep, problem)))
}

/// The first declared member of an object (named `at`) missing or misfitting.
fn members_misfit(fields: &[Field], map: &Object, at: &str) -> Option<(String, String)> {
    for field in fields {
        let here = format!("{}.{}", at, field.name);
        match map.get(&field.name) {
            None if field.required => {
                let why = format!("{}: required, missing", here);
                return Some((here, why));
            }
            None => {}
            Some(value) => {
                if let Some(found) = misfit(field.view(), value, &here) {
                    return Some(found);
                }
            }
        }
    }
    None
}

fn shape_problem(shape: ShapeRef<'_>, v: &Value) -> Option<String> {
    let expected = || {
        Some(format!(
            "expected {}, got {}",
            wanted(shape.kind),
            kind(Some(v))
        ))
    };
    match (shape.kind, v) {
        ("string", Value::String(s)) => {
            if shape.r#enum.is_empty() || shape.r#enum.contains(s) {
                return None;
            }
            let quoted: Vec<String> = shape.r#enum.iter().map(|e| quote(e)).collect();
            Some(format!(
                "expected one of {}, got {}",
                quoted.join(", "),
                quote(s)
            ))
        }
        ("integer", Value::Number(n)) | ("number", Value::Number(n)) => {
            let n = number(n)?;
            if shape.kind == "integer" && n != n.trunc() {
                return expected();
            }
            match (shape.minimum, shape.maximum) {
                (Some(min), _) if n < min => Some(format!(
                    "expected at least {}, got {}",
                    js_number(min),
                    js_number(n)
                )),
                (_, Some(max)) if n > max => Some(format!(
                    "expected at most {}, got {}",
                    js_number(max),
                    js_number(n)
                )),
                _ => None,
            }
        }
        ("boolean", Value::Bool(_)) | ("object", Value::Object(_)) => None,
        ("array", Value::Array(list)) => {
            let items = shape.items?;
            for (i, item) in list.iter().enumerate() {
                if let Some(problem) = shape_problem(items.view(), item) {
                    return Some(format!("[{}]: {}", i, problem));
                }
            }
            None
        }
        _ => expected(),
    }
}

/// The JSON type of a value, as the messages name it.
fn kind(v: Option<&Value>) -> &'static str {
    match v {
        None | Some(Value::Null) => "null",
        Some(Value::String(_)) => "a string",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Object(_)) => "an object",
        Some(Value::Array(_)) => "an array",
        Some(Value::Number(_)) => "a number",
    }
}

/// Text quoted as Go's strconv.Quote writes it (the messages every runtime
/// shares).
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Why details (named `at`) are refused, as "<at><path>: <problem>", or None
/// when they are JSON every runtime reads alike: within MAX_DETAILS_DEPTH and
/// MAX_DETAILS_NODES, every number finite as a double.
fn details_problem(details: &Value, at: &str) -> Option<String> {
    let mut nodes = 0;
    let mut path = Vec::new();
    let (why, whole) = check(details, 0, &mut nodes, &mut path)?;
    let mut text = at.to_string();
    if !whole {
        for part in path.iter().rev() {
            text.push_str(part);
        }
    }
    if text.len() > 200 {
        let mut cut = 197;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("...");
    }
    Some(format!("{}: {}", text, why))
}

/// The problem of v (in a container at depth) and whether it is the details'
/// as a whole; `path` gets the parts to it, innermost first.
fn check(
    v: &Value,
    depth: usize,
    nodes: &mut usize,
    path: &mut Vec<String>,
) -> Option<(String, bool)> {
    *nodes += 1;
    if *nodes > MAX_DETAILS_NODES {
        return Some((
            format!("holds more than {} values", MAX_DETAILS_NODES),
            true,
        ));
    }
    let deep = || format!("nested deeper than {} levels", MAX_DETAILS_DEPTH);
    match v {
        Value::Number(n) => match number(n) {
            Some(_) => None,
            None => Some((
                format!("{} is not a finite number", shown(&n.to_string())),
                false,
            )),
        },
        Value::Object(map) => {
            if depth + 1 > MAX_DETAILS_DEPTH {
                return Some((deep(), false));
            }
            for (key, item) in map {
                if let Some(found) = check(item, depth + 1, nodes, path) {
                    path.push(format!(".{}", key));
                    return Some(found);
                }
            }
            None
        }
        Value::Array(list) => {
            if depth + 1 > MAX_DETAILS_DEPTH {
                return Some((deep(), false));
            }
            for (i, item) in list.iter().enumerate() {
                if let Some(found) = check(item, depth + 1, nodes, path) {
                    path.push(format!("[{}]", i));
                    return Some(found);
                }
            }
            None
        }
        _ => None,
    }
}

/// Text cut for a message.
fn shown(text: &str) -> String {
    if text.len() <= 80 {
        return text.to_string();
    }
    format!("{}...", &text[..77])
}
