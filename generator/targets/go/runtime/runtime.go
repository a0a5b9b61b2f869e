// Package taxogen is the runtime of a taxogen-generated Go package: the code that
// is the same for every taxonomy (the Error type, payload decoding and its
// validation and limits, details field checks, message templates, wrapping).
// The generated package holds only the taxonomy's tables and re-exports what is
// public here; import that package, never this one.
package taxogen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The limits of FromPayload, the same in every taxogen runtime: a code is at
// most MaxCodeLength characters; details nest at most MaxDetailsDepth deep (the
// details object is depth 1, each object or array inside adds one) and hold at
// most MaxDetailsNodes values in all; an integer code is at most MaxWireInteger
// either side of 0 (JavaScript's safe integers).
const (
	MaxCodeLength   = 256
	MaxDetailsDepth = 64
	MaxDetailsNodes = 100000
	MaxWireInteger  = 1<<53 - 1
)

// Code is an error code as the taxonomy spells it on the wire (an integer code
// as its decimal text).
type Code string

// Domain is a domain of the taxonomy.
type Domain string

// Shape is what a details value (or an array's item) must be.
type Shape struct {
	Type    string // string, integer, number, boolean, array or object
	Enum    []string
	Minimum *float64
	Maximum *float64
	// Fields are the declared members of an object (issue 30 §7: a nested
	// typed object); nil for a free-form object.
	Fields []Field
}

// Field is a declared details field of a code, or a member of a nested typed
// object (issue 30 §7: never a Default or a Const).
type Field struct {
	Name     string
	Type     string
	Required bool
	Enum     []string
	Minimum  *float64
	Maximum  *float64
	Items    *Shape
	Default  string // the default as JSON text; "" when there is none
	// Const is a constant field's value as messages show it (issue 30 §7), its
	// Default the value itself: absent or equal on decoding, filled in, and
	// written on every payload; "" when the field is no constant.
	Const string
	// Fields are the declared members of an object field (issue 30 §7); nil
	// for a free-form object.
	Fields []Field
}

// Piece is literal text of a message template, then the field rendered after
// it ("" at the end).
type Piece struct {
	Text  string
	Field string
}

// Spec is what the taxonomy says of one code.
type Spec struct {
	Code      Code
	Domain    Domain
	Retryable bool
	Meaning   string
	Fields    []Field
	Template  []Piece // nil: the message is the meaning
	// What the code maps to in other protocols, where the taxonomy says (zero
	// values where it does not): its HTTP status, its canonical gRPC status
	// name, whether callers must back off before retrying, its docs link.
	HTTPStatus int
	GRPCStatus string
	Throttling bool
	DocURL     string
	// RetryAfterField is the details field that says when to retry, in seconds
	// (retry_after:, issue 30 §8); "" where the taxonomy names none.
	RetryAfterField string
	// Is is the standard library's sentinel errors an error of the code
	// answers errors.Is for (go_is:, issue 30 §6): fs.ErrNotExist...
	Is []error
}

// Match is one prefix (string codes) or inclusive range Low..High (integer
// codes) of a domain's match: an unknown code in it is treated as Code (the
// domain's <domain>_error code, else the fallback code) of Domain, with the
// meaning and statuses of the domain's class.
type Match struct {
	Domain Domain
	Code   Code
	// Keeps: an unknown code in it keeps its identity (issue 30 §3): the
	// domain says fallback: null, or the taxonomy has no fallback and the
	// domain no <domain>_error code (Code is then "": none lends its class).
	Keeps      bool
	Prefix     string
	Low, High  int64
	Meaning    string
	HTTPStatus int
	GRPCStatus string
}

// Event is where an event type carries its error (a dotted path).
type Event struct {
	Type     string
	Location string
}

// Taxonomy is the tables a generated package hands to every runtime function.
type Taxonomy struct {
	specs    map[Code]*Spec
	fallback *Spec
	wrap     *Spec
	pattern  *regexp.Regexp // nil: codes are integers
	events   map[string]string
	matches  []Match     // longest prefix first, innermost range first
	payload  *PayloadMap // nil: today's payload
	// keeps: the taxonomy has no fallback (issue 30 §3), so an unknown code
	// keeps its identity, fallback then holding what such an error says of
	// itself (no domain, the taxonomy's title as its meaning); unknownRetryable
	// is whether it is retryable where its payload does not say.
	keeps            bool
	unknownRetryable string
}

// WithoutFallback makes t a taxonomy with no fallback (fallback: null, issue
// 30 §3): an unknown code keeps its identity as the error's Code, with no
// domain, meaning as its meaning, and retryable where its payload does not
// say as rule says ("false", "true", or "by_status": a 5xx status received).
func (t *Taxonomy) WithoutFallback(meaning, rule string) *Taxonomy {
	t.fallback = &Spec{Meaning: meaning, Retryable: rule == "true"}
	t.keeps = true
	t.unknownRetryable = rule
	return t
}

// WithUnknownRetryable makes an unknown code that keeps its identity (a domain
// says fallback: null) retryable where its payload does not say as rule says
// ("false", "true", or "by_status": a 5xx status received).
func (t *Taxonomy) WithUnknownRetryable(rule string) *Taxonomy {
	t.unknownRetryable = rule
	return t
}

// kept reports whether an unknown code that fell in matched (nil: none) keeps
// its identity.
func (t *Taxonomy) kept(matched *Match) bool {
	if matched != nil {
		return matched.Keeps
	}
	return t.keeps
}

// unknownRetryable is whether an unknown code that keeps its identity, received
// with status (0: none), is retryable where its payload does not say.
func (t *Taxonomy) retryableUnknown(status int) bool {
	if t.unknownRetryable == "by_status" {
		return status >= 500 && status <= 599
	}
	return t.unknownRetryable == "true"
}

// PayloadMap is the payload a taxonomy's errors travel as, where it is not
// today's {code, message, retryable, details}: the member holding each field,
// "" where the field is not on the wire (Retryable, Details, Envelope). Details
// "*" is every member the others do not name; DetailsType is "object", "array"
// or "any"; the error object sits under Envelope; AlwaysDetails writes the
// details member even when empty. URI (RFC 9457's problem) carries the code
// between its two parts, percent-encoded, and title (the meaning) and status
// (the HTTP status) are written unless the details hold them. Status is the
// member holding the HTTP status, read into each error's own HTTPStatus() and
// written from it (left out while the error has none).
type PayloadMap struct {
	Code            string
	Message         string
	Retryable       string
	Details         string
	DetailsType     string
	Envelope        string
	AlwaysDetails   bool
	URI             *[2]string
	MessageRequired bool
	Status          string
	// ExactMessage (message_required: false): a payload without the message
	// gives the code's template rendered from the details (else its meaning),
	// and is written back without it.
	ExactMessage bool
	// Constants are members every payload carries with a fixed value, members
	// of the payload itself (beside the envelope, if any), written on every
	// payload; received, each absent (or null) or equal, else an
	// *InvalidPayloadError naming the member.
	Constants []Constant
	// Outside (outside: keep): the members beside the envelope (but the
	// constants), or without one those the mapping does not name, are kept on
	// the error as received (its Outside) and written back.
	Outside bool
}

// Constant is a member every payload carries: its name, and its value as JSON
// text (a string, a number or a boolean), which error messages show.
type Constant struct {
	Name  string
	Text  string
	value any
}

// WithPayload makes t read and write payloads as p maps them.
func (t *Taxonomy) WithPayload(p PayloadMap) *Taxonomy {
	p.Constants = append([]Constant(nil), p.Constants...)
	for i := range p.Constants {
		value, err := decode([]byte(p.Constants[i].Text))
		if err != nil {
			panic("taxogen: constant " + p.Constants[i].Name + ": " + err.Error())
		}
		p.Constants[i].value = value
	}
	t.payload = &p
	return t
}

// sameConstant reports whether a received value is the constant c as JSON
// compares them: numbers by value, booleans apart from numbers.
func sameConstant(found any, c any) bool {
	switch c := c.(type) {
	case string:
		s, ok := found.(string)
		return ok && s == c
	case bool:
		b, ok := found.(bool)
		return ok && b == c
	}
	want, _ := number(c)
	got, ok := number(found)
	return ok && got == want
}

// constant reports whether key is the member of one of p's constants.
func (p *PayloadMap) constant(key string) bool {
	for _, c := range p.Constants {
		if c.Name == key {
			return true
		}
	}
	return false
}

// names reports whether the mapping names key as one of the error's own
// members: its code, message, retryable, status or details ("" is none).
func (p *PayloadMap) names(key string) bool {
	for _, member := range [...]string{p.Code, p.Message, p.Retryable, p.Status, p.Details} {
		if member != "" && member == key {
			return true
		}
	}
	return false
}

// fixed reports whether key is the member of one of p's constants among the
// error object's members (with no envelope: the constants sit beside it).
func (p *PayloadMap) fixed(key string) bool {
	if p.Envelope != "" {
		return false
	}
	for _, c := range p.Constants {
		if c.Name == key {
			return true
		}
	}
	return false
}

// WithAliases makes each alias (another spelling of a code, its aliases:) read
// as that code: Lookup and FromPayload give the code's spec, and the error keeps
// the spelling it was received with as its WireCode. pairs alternate an alias
// and its code.
func (t *Taxonomy) WithAliases(pairs ...Code) *Taxonomy {
	for i := 0; i+1 < len(pairs); i += 2 {
		t.specs[pairs[i]] = t.specs[pairs[i+1]]
	}
	return t
}

// NewTaxonomy builds the tables of a generated package (its codes in order).
// pattern is what a well-formed string code matches; "" means codes are
// integers, each Code its decimal text. matches are the domains' matches, in
// any order.
func NewTaxonomy(specs []Spec, fallback, wrap Code, pattern string, events []Event, matches []Match) *Taxonomy {
	t := &Taxonomy{
		specs:   make(map[Code]*Spec, len(specs)),
		events:  make(map[string]string, len(events)),
		matches: append([]Match(nil), matches...),
	}
	sort.SliceStable(t.matches, func(i, j int) bool {
		a, b := t.matches[i], t.matches[j]
		if len(a.Prefix) != len(b.Prefix) {
			return len(a.Prefix) > len(b.Prefix)
		}
		return a.High-a.Low < b.High-b.Low
	})
	if pattern != "" {
		t.pattern = regexp.MustCompile(pattern)
	}
	for i := range specs {
		t.specs[specs[i].Code] = &specs[i]
	}
	t.fallback = t.specs[fallback]
	t.wrap = t.specs[wrap]
	for _, event := range events {
		t.events[event.Type] = event.Location
	}
	return t
}

// Float is a pointer to v, for the bounds of the generated tables.
func Float(v float64) *float64 { return &v }

// Error is an error of the taxonomy. Code is the code it is treated as (the
// fallback code for a code the taxonomy does not know); WireCode is the code as
// received, which MarshalJSON re-emits.
type Error struct {
	Code      Code
	WireCode  string
	Message   string
	Retryable bool
	Details   map[string]any
	// Data is the details where the payload's are not always an object
	// (details_type array or any): the JSON value as decoded; Details is then nil.
	Data  any
	Cause error
	// MessageAbsent: received without its message (the taxonomy says
	// message_required: false); Message is then the template's or the meaning,
	// and MarshalJSON leaves the member out, as received.
	MessageAbsent bool
	// Outside is the members received beside the envelope, or without one
	// those the mapping does not name (the taxonomy says outside: keep), which
	// MarshalJSON writes back: JSON-RPC's jsonrpc and id, Kubernetes' metadata.
	// Nil for an error built here; set it to send some.
	Outside map[string]any
	tax     *Taxonomy
	matched *Match // the match an unknown code fell in, if any
	status  int    // its own HTTP status (received, or WithHTTPStatus); 0: its code's
}

// Error is the wire code and the message.
func (e *Error) Error() string { return e.wire() + ": " + e.Message }

// Unwrap is the cause, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Cause }

// Is matches another *Error of the same Code, so errors.Is(err, NewXxxError())
// asks "is err, or does it wrap, an error of that code", and each sentinel its
// code's go_is names, so errors.Is(err, fs.ErrNotExist) holds for ENOENT.
func (e *Error) Is(target error) bool {
	if t, ok := target.(*Error); ok {
		return t != nil && t.Code == e.Code
	}
	if spec := e.spec(); spec != nil {
		for _, sentinel := range spec.Is {
			if target == sentinel {
				return true
			}
		}
	}
	return false
}

// Domain is the domain of the error's code ("" for an error not built by the
// package).
func (e *Error) Domain() Domain {
	if e.matched != nil {
		return e.matched.Domain
	}
	if spec := e.spec(); spec != nil {
		return spec.Domain
	}
	return ""
}

// Meaning is what the taxonomy says the error's code means.
func (e *Error) Meaning() string {
	if e.matched != nil {
		return e.matched.Meaning
	}
	if spec := e.spec(); spec != nil {
		return spec.Meaning
	}
	return ""
}

// HTTPStatus is the error's own HTTP status: the one received where the
// payload carries it, else the one WithHTTPStatus gave, else the one the
// taxonomy maps its code to (0 where it gives none).
func (e *Error) HTTPStatus() int {
	if e.status != 0 {
		return e.status
	}
	if e.matched != nil {
		return e.matched.HTTPStatus
	}
	if spec := e.spec(); spec != nil {
		return spec.HTTPStatus
	}
	return 0
}

// GRPCStatus is the canonical gRPC status name ("UNAVAILABLE") the taxonomy
// maps the error's code to ("" where it gives none).
func (e *Error) GRPCStatus() string {
	if e.matched != nil {
		return e.matched.GRPCStatus
	}
	if spec := e.spec(); spec != nil {
		return spec.GRPCStatus
	}
	return ""
}

// Throttling is whether callers must back off before they retry the error's
// (retryable) code.
func (e *Error) Throttling() bool {
	if spec := e.spec(); spec != nil {
		return spec.Throttling
	}
	return false
}

// DocURL is the documentation link of the error's code ("" where the taxonomy
// gives none).
func (e *Error) DocURL() string {
	if spec := e.spec(); spec != nil {
		return spec.DocURL
	}
	return ""
}

// RetryAfter is when to retry: the value, in seconds, of the details field
// the taxonomy names for the error's code (retry_after:), as a duration; 0
// where it names none or the details hold no number there.
func (e *Error) RetryAfter() time.Duration {
	spec := e.spec()
	if spec == nil || spec.RetryAfterField == "" {
		return 0
	}
	value, ok := seconds(e.Details[spec.RetryAfterField])
	if !ok || math.IsNaN(value) {
		return 0
	}
	nanos := value * float64(time.Second)
	if nanos >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	if nanos <= math.MinInt64 {
		return time.Duration(math.MinInt64)
	}
	return time.Duration(nanos)
}

// seconds is a details value as a number, if it is one (Go's integers and
// floats, json.Number).
func seconds(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(r.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(r.Uint()), true
	case reflect.Float32, reflect.Float64:
		return r.Float(), true
	}
	return 0, false
}

// WithMessage is a copy of the error with another message.
func (e *Error) WithMessage(message string) *Error {
	c := *e
	c.Message = message
	c.MessageAbsent = false
	return &c
}

// WithHTTPStatus is a copy of the error with its own HTTP status, which must
// be from 100 to 599 (anything else is a programming error, and panics).
func (e *Error) WithHTTPStatus(status int) *Error {
	if status < 100 || status > 599 {
		panic(fmt.Sprintf("WithHTTPStatus: expected an HTTP status from 100 to 599, got %d", status))
	}
	c := *e
	c.status = status
	return &c
}

// WithCause is a copy of the error that wraps cause.
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.Cause = cause
	return &c
}

// DecodeDetails decodes the details into v (a details struct of the package).
func (e *Error) DecodeDetails(v any) error {
	data, err := json.Marshal(e.details())
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// MarshalJSON is the wire payload: code (as received), message, retryable and
// details (an object, empty when there are none).
func (e *Error) MarshalJSON() ([]byte, error) {
	if e.tax != nil && e.tax.payload != nil {
		return json.Marshal(e.mapped(e.tax.payload))
	}
	var code any = e.wire()
	if e.tax != nil && e.tax.pattern == nil {
		code = json.Number(e.wire()) // an integer code goes as a number
	}
	return json.Marshal(struct {
		Code      any            `json:"code"`
		Message   string         `json:"message"`
		Retryable bool           `json:"retryable"`
		Details   map[string]any `json:"details"`
	}{code, e.Message, e.Retryable, e.details()})
}

func (e *Error) wire() string {
	if e.WireCode != "" {
		return e.WireCode
	}
	return string(e.Code)
}

func (e *Error) details() map[string]any {
	if e.Details == nil {
		return map[string]any{}
	}
	return e.Details
}

func (e *Error) spec() *Spec {
	if e.tax == nil {
		return nil
	}
	if spec := e.tax.specs[e.Code]; spec != nil {
		return spec
	}
	// An unknown code that keeps its identity: its class's (the matching
	// domain's code's, or the fallback's), else the root's.
	if m := e.matched; m != nil && m.Keeps && (m.Code != "" || !e.tax.keeps) {
		return e.tax.specs[m.Code]
	}
	if !e.tax.keeps {
		return nil
	}
	return e.tax.fallback
}

// HasCode reports whether err is, or wraps, an *Error of code.
func HasCode(err error, code Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// InDomain reports whether err is, or wraps, an error whose Domain() is one of
// domains: a generated InDomainXxx helper passes its domain and every domain
// below it, as a Python or TypeScript domain class is the base of its child
// domains' classes.
func InDomain(err error, domains ...Domain) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	got := e.Domain()
	for _, domain := range domains {
		if got == domain {
			return true
		}
	}
	return false
}

// InvalidPayloadError is why a payload was refused: Field names the bad field
// ("payload", "code", "message", "retryable", "details", "details.<name>" or
// "event").
type InvalidPayloadError struct {
	Field   string
	Message string
}

func (e *InvalidPayloadError) Error() string { return e.Message }

func invalid(field, format string, args ...any) *InvalidPayloadError {
	return &InvalidPayloadError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// WrappedValue is the cause ToError gives a value that is not an error.
type WrappedValue struct {
	Value any
}

func (w *WrappedValue) Error() string { return fmt.Sprintf("non-error value: %v", w.Value) }

// Lookup is the code a received code is treated as: itself if the taxonomy
// knows it, else that of the domain whose match it falls in, else the fallback
// code.
func Lookup(t *Taxonomy, code string) Code {
	if spec, ok := t.specs[Code(code)]; ok {
		return spec.Code
	}
	m := t.match(code)
	if m != nil && !m.Keeps {
		return m.Code
	}
	if t.kept(m) {
		return Code(code) // it keeps its identity (issue 30 §3)
	}
	return t.fallback.Code
}

// match is the match an unknown code falls in: the longest prefix it starts
// with, or the innermost range it is in (integer codes, as decimal text).
func (t *Taxonomy) match(code string) *Match {
	number, err := strconv.ParseInt(code, 10, 64)
	for i := range t.matches {
		m := &t.matches[i]
		if t.pattern != nil {
			if m.Prefix != "" && strings.HasPrefix(code, m.Prefix) {
				return m
			}
		} else if err == nil && m.Prefix == "" && m.Low <= number && number <= m.High {
			return m
		}
	}
	return nil
}

// IsRetryable is whether Lookup(code) is retryable.
func IsRetryable(t *Taxonomy, code string) bool {
	if spec := t.specs[Lookup(t, code)]; spec != nil {
		return spec.Retryable
	}
	return t.unknownRetryable == "true" // an unknown code that keeps its identity
}

// Events is a copy of the events table: event type → where its error sits.
func Events(t *Taxonomy) map[string]string {
	out := make(map[string]string, len(t.events))
	for k, v := range t.events {
		out[k] = v
	}
	return out
}

// decode reads one JSON value, numbers kept as json.Number; nothing may follow.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return value, nil
}

// FromPayload decodes and validates a JSON payload.
func FromPayload(t *Taxonomy, data []byte) (*Error, error) {
	value, err := decode(data)
	if err != nil {
		return nil, invalid("payload", "payload: not JSON (%v)", err)
	}
	return fromValue(t, value)
}

func fromValue(t *Taxonomy, value any) (*Error, error) {
	if t.payload != nil {
		return fromMapped(t, t.payload, value)
	}
	payload, ok := value.(map[string]any)
	if !ok {
		return nil, invalid("payload", "payload: expected an object, got %s", kind(value))
	}
	code, problem := readCode(t, payload["code"])
	if problem != nil {
		return nil, problem
	}
	spec, known := t.specs[Code(code)]
	if !known && t.pattern != nil {
		if n := utf8.RuneCountInString(code); n > MaxCodeLength {
			return nil, invalid("code", "code: longer than %d characters (%d)", MaxCodeLength, n)
		}
		if !t.pattern.MatchString(code) {
			return nil, invalid("code", "code: %q is not a well-formed error code", code)
		}
	}
	message, ok := payload["message"].(string)
	if !ok {
		return nil, invalid("message", "message: expected a string, got %s", kind(payload["message"]))
	}
	retryable, ok := payload["retryable"].(bool)
	if !ok {
		return nil, invalid("retryable", "retryable: expected a boolean, got %s", kind(payload["retryable"]))
	}
	var details map[string]any
	if raw := payload["details"]; raw != nil {
		details, ok = raw.(map[string]any)
		if !ok {
			return nil, invalid("details", "details: expected an object, got %s", kind(raw))
		}
		if problem := detailsProblem(details, "details", false); problem != "" {
			return nil, invalid("details", "%s", problem)
		}
	}
	var matched *Match
	treated := Code(code)
	if !known {
		spec = t.fallback
		if matched = t.match(code); matched != nil && !matched.Keeps {
			spec = t.specs[matched.Code]
		}
		if !t.kept(matched) {
			treated = spec.Code
		}
	} else if problem := fieldsProblem(spec.Fields, details); problem != nil {
		return nil, problem
	} else {
		details = withConstants(spec.Fields, details)
		treated = spec.Code
	}
	return &Error{
		Code:      treated,
		WireCode:  code,
		Message:   message,
		Retryable: retryable,
		Details:   details,
		tax:       t,
		matched:   matched,
	}, nil
}

// readCode is a payload's code as text: a string as it is, or, where codes are
// integers, an integer (5.0 too) within MaxWireInteger either side of 0 as its
// decimal text.
func readCode(t *Taxonomy, raw any) (string, *InvalidPayloadError) {
	return readCodeAt(t, raw, "code")
}

// readCodeAt is readCode of the member name.
func readCodeAt(t *Taxonomy, raw any, name string) (string, *InvalidPayloadError) {
	if t.pattern != nil {
		code, ok := raw.(string)
		if !ok {
			return "", invalid(name, "%s: expected a string, got %s", name, kind(raw))
		}
		return code, nil
	}
	number, ok := raw.(json.Number)
	if !ok {
		return "", invalid(name, "%s: expected an integer, got %s", name, kind(raw))
	}
	value, err := strconv.ParseFloat(string(number), 64)
	if err != nil || value != math.Trunc(value) {
		return "", invalid(name, "%s: expected an integer, got a number", name)
	}
	if math.Abs(value) > MaxWireInteger {
		return "", invalid(name, "%s: %s is out of range (at most %d either side of 0)", name, number, MaxWireInteger)
	}
	return strconv.FormatInt(int64(value), 10), nil
}

// wireValue is a code's text as a payload carries it: a json.Number where codes
// are integers.
func wireValue(t *Taxonomy, code string) any {
	if t.pattern == nil {
		return json.Number(code)
	}
	return code
}

// wellFormed reports whether a string code is well-formed (integer codes are,
// once read).
func wellFormed(t *Taxonomy, code string) bool {
	if t.pattern == nil {
		return true
	}
	return utf8.RuneCountInString(code) <= MaxCodeLength && t.pattern.MatchString(code)
}

// percentEncode is text with every byte but the unreserved characters (RFC
// 3986: A-Z a-z 0-9 - . _ ~) as %XX in upper-case hex.
func percentEncode(text string) string {
	var out strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if ('A' <= c && c <= 'Z') || ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || strings.IndexByte("-._~", c) >= 0 {
			out.WriteByte(c)
		} else {
			fmt.Fprintf(&out, "%%%02X", c)
		}
	}
	return out.String()
}

var integerText = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,15})$`)

// uriCode is the code a problem's type names, or false: a URI that is not one
// of the taxonomy's, or holds no well-formed code, spelt as percentEncode does.
func uriCode(t *Taxonomy, uri *[2]string, text string) (string, bool) {
	prefix, suffix := uri[0], uri[1]
	if len(text) < len(prefix)+len(suffix) || len(text) > len(prefix)+len(suffix)+12*MaxCodeLength {
		return "", false
	}
	if !strings.HasPrefix(text, prefix) || !strings.HasSuffix(text, suffix) {
		return "", false
	}
	middle := text[len(prefix) : len(text)-len(suffix)]
	var decoded []byte
	for i := 0; i < len(middle); i++ {
		if middle[i] != '%' {
			decoded = append(decoded, middle[i])
			continue
		}
		if i+2 >= len(middle) {
			return "", false
		}
		b, err := strconv.ParseUint(middle[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		decoded = append(decoded, byte(b))
		i += 2
	}
	code := string(decoded)
	if code == "" || !utf8.ValidString(code) || percentEncode(code) != middle {
		return "", false
	}
	if t.pattern == nil {
		if !integerText.MatchString(code) {
			return "", false
		}
		n, err := strconv.ParseInt(code, 10, 64)
		if err != nil || n > MaxWireInteger || n < -MaxWireInteger {
			return "", false
		}
		return code, true
	}
	if utf8.RuneCountInString(code) > MaxCodeLength || !t.pattern.MatchString(code) {
		return "", false
	}
	return code, true
}

// fromMapped is fromValue for a payload other than today's.
func fromMapped(t *Taxonomy, p *PayloadMap, value any) (*Error, error) {
	payload, ok := value.(map[string]any)
	if !ok {
		return nil, invalid("payload", "payload: expected an object, got %s", kind(value))
	}
	for _, c := range p.Constants {
		if found := payload[c.Name]; found != nil && !sameConstant(found, c.value) {
			return nil, invalid(c.Name, "%s: expected %s, the constant every payload carries, or none", c.Name, c.Text)
		}
	}
	body, at := payload, ""
	if p.Envelope != "" {
		inner, ok := payload[p.Envelope].(map[string]any)
		if !ok {
			return nil, invalid(p.Envelope, "%s: expected an object, got %s", p.Envelope, kind(payload[p.Envelope]))
		}
		body, at = inner, p.Envelope+"."
	}
	codeName := at + p.Code
	raw := body[p.Code]
	code, hasCode, kept := "", true, ""
	if p.URI != nil {
		if raw == nil {
			hasCode = false
		} else if text, ok := raw.(string); !ok {
			return nil, invalid(codeName, "%s: expected a string, got %s", codeName, kind(raw))
		} else if found, ok := uriCode(t, p.URI, text); ok {
			code = found
		} else {
			hasCode, kept = false, text
		}
	} else {
		found, problem := readCodeAt(t, raw, codeName)
		if problem != nil {
			return nil, problem
		}
		code = found
		if _, known := t.specs[Code(code)]; !known && t.pattern != nil {
			if n := utf8.RuneCountInString(code); n > MaxCodeLength {
				return nil, invalid(codeName, "%s: longer than %d characters (%d)", codeName, MaxCodeLength, n)
			}
			if !t.pattern.MatchString(code) {
				return nil, invalid(codeName, "%s: %q is not a well-formed error code", codeName, code)
			}
		}
	}
	messageName := at + p.Message
	message, ok := body[p.Message].(string)
	if !ok && (body[p.Message] != nil || p.MessageRequired) {
		return nil, invalid(messageName, "%s: expected a string, got %s", messageName, kind(body[p.Message]))
	}
	retryable, given := false, false
	if p.Retryable != "" {
		name := at + p.Retryable
		retryable, given = body[p.Retryable].(bool)
		if !given {
			return nil, invalid(name, "%s: expected a boolean, got %s", name, kind(body[p.Retryable]))
		}
	}
	status := 0
	if p.Status != "" && body[p.Status] != nil {
		name, wanted := at+p.Status, "expected an HTTP status (an integer from 100 to 599), got"
		n, ok := number(body[p.Status])
		if !ok || math.IsInf(n, 0) || n != math.Trunc(n) {
			return nil, invalid(name, "%s: %s %s", name, wanted, kind(body[p.Status]))
		}
		if n < 100 || n > 599 {
			return nil, invalid(name, "%s: %s %s", name, wanted, jsNumber(n))
		}
		status = int(n)
	}
	var details map[string]any
	var data any
	if p.Details == "*" {
		name := p.Envelope
		if name == "" {
			name = "payload"
		}
		details = make(map[string]any, len(body))
		for key, member := range body {
			if key != p.Code && key != p.Message && (p.Retryable == "" || key != p.Retryable) && (p.Status == "" || key != p.Status) && !p.fixed(key) {
				details[key] = member
			}
		}
		if problem := detailsProblem(details, name, false); problem != "" {
			return nil, invalid(name, "%s", problem)
		}
		if kept != "" {
			details[p.Code] = kept
		}
	} else if p.Details != "" {
		name := at + p.Details
		if member := body[p.Details]; member != nil {
			_, isObject := member.(map[string]any)
			_, isArray := member.([]any)
			if (p.DetailsType == "object" && !isObject) || (p.DetailsType == "array" && !isArray) {
				return nil, invalid(name, "%s: expected %s, got %s", name, article(p.DetailsType), kind(member))
			}
			if problem := detailsProblem(member, name, false); problem != "" {
				return nil, invalid(name, "%s", problem)
			}
			if isObject && p.DetailsType == "object" {
				details = member.(map[string]any)
			} else {
				data = member
			}
		}
		if data == nil && p.DetailsType == "array" {
			data = []any{}
		}
	}
	spec, known := t.specs[Code(code)]
	var matched *Match
	if !hasCode || !known {
		spec = t.fallback
		if hasCode {
			if matched = t.match(code); matched != nil && !matched.Keeps {
				spec = t.specs[matched.Code]
			}
		}
	} else if problem := fieldsProblem(spec.Fields, details); problem != nil {
		return nil, problem
	} else {
		details = withConstants(spec.Fields, details)
	}
	// Issue 30 §3: with no fallback, an unknown code keeps its identity.
	keeps := hasCode && !known && t.kept(matched)
	treated := spec.Code
	if keeps {
		treated = Code(code)
	}
	if !hasCode {
		code = string(spec.Code)
	}
	absent := body[p.Message] == nil
	if absent && p.ExactMessage {
		message = spec.Meaning
		if matched != nil {
			message = matched.Meaning
		} else if hasCode && known {
			message = absentMessage(spec, details)
		}
	} else if absent {
		message = spec.Meaning
		if matched != nil {
			message = matched.Meaning
		}
		if title, ok := details["title"].(string); ok {
			message = title
		}
	}
	if !given {
		retryable = spec.Retryable
		if keeps {
			retryable = t.retryableUnknown(status)
		}
	}
	var outside map[string]any
	if p.Outside {
		// Not kept: the envelope and the constants; without an envelope, every
		// member the mapping names (Kubernetes' metadata is kept).
		outside = make(map[string]any, len(payload))
		for key, member := range payload {
			if key != p.Envelope && !p.constant(key) && (p.Envelope != "" || !p.names(key)) {
				outside[key] = member
			}
		}
		if problem := detailsProblem(outside, "payload", false); problem != "" {
			return nil, invalid("payload", "%s", problem)
		}
	}
	return &Error{
		Code:          treated,
		WireCode:      code,
		Message:       message,
		Retryable:     retryable,
		Details:       details,
		Data:          data,
		MessageAbsent: absent && p.ExactMessage,
		Outside:       outside,
		tax:           t,
		matched:       matched,
		status:        status,
	}, nil
}

// absentMessage is the message of an error received without one: its code's
// template over the (checked) details, an omitted field's default in its
// place, else the meaning.
func absentMessage(spec *Spec, details map[string]any) string {
	if spec.Template == nil {
		return spec.Meaning
	}
	values := make(map[string]any, len(spec.Template))
	for _, piece := range spec.Template {
		if piece.Field == "" {
			continue
		}
		value, ok := details[piece.Field]
		if !ok || value == nil {
			for _, field := range spec.Fields {
				if field.Name == piece.Field && field.Default != "" {
					value, _ = decode([]byte(field.Default))
				}
			}
		}
		if value == nil {
			return spec.Meaning
		}
		values[piece.Field] = value
	}
	return render(spec, values)
}

func article(detailsType string) string {
	if detailsType == "array" {
		return "an array"
	}
	return "an object"
}

// mapped is the payload of e as p maps it.
func (e *Error) mapped(p *PayloadMap) any {
	spec := e.spec()
	if spec == nil {
		spec = e.tax.fallback
	}
	body := map[string]any{}
	outer := body
	if p.Envelope == "" && p.Outside {
		for key, member := range e.Outside { // the error's own members win
			body[key] = member
		}
	}
	if p.Envelope != "" {
		outer = map[string]any{}
		if p.Outside {
			for key, member := range e.Outside {
				outer[key] = member
			}
		}
		outer[p.Envelope] = body
	}
	for _, c := range p.Constants {
		outer[c.Name] = c.value
	}
	if p.URI != nil {
		kept, ok := e.Details[p.Code].(string)
		if p.Details != "*" || !ok {
			kept = p.URI[0] + percentEncode(e.wire()) + p.URI[1]
		}
		body[p.Code] = kept
		title, status := spec.Meaning, e.HTTPStatus()
		if e.matched != nil { // a domain's match: its class's
			title = e.matched.Meaning
		}
		body["title"] = title
		if status != 0 {
			body["status"] = status
		} else {
			body["status"] = nil
		}
	} else if e.tax.pattern == nil {
		body[p.Code] = json.Number(e.wire()) // an integer code goes as a number
	} else {
		body[p.Code] = e.wire()
	}
	if !(p.ExactMessage && e.MessageAbsent) {
		body[p.Message] = e.Message
	}
	if p.Retryable != "" {
		body[p.Retryable] = e.Retryable
	}
	if status := e.HTTPStatus(); p.Status != "" && status != 0 {
		body[p.Status] = status
	}
	if p.Details == "*" {
		for key, member := range e.Details {
			if key != p.Code && key != p.Message && (p.Retryable == "" || key != p.Retryable) && (p.Status == "" || key != p.Status) && !p.fixed(key) {
				body[key] = member
			}
		}
	} else if p.Details != "" {
		var value any
		empty := true
		if p.DetailsType == "object" {
			value, empty = e.details(), len(e.Details) == 0
		} else {
			value = e.Data
			switch data := e.Data.(type) {
			case nil:
			case []any:
				empty = len(data) == 0
			case map[string]any:
				empty = len(data) == 0
			default:
				empty = false
			}
		}
		if p.AlwaysDetails || !empty {
			body[p.Details] = value
		}
	}
	return outer
}

// ErrorFromEvent is the error an event carries where the events table says:
// nil (and no error) when its type is not in the table or nothing is there.
func ErrorFromEvent(t *Taxonomy, data []byte) (*Error, error) {
	value, err := decode(data)
	if err != nil {
		return nil, invalid("event", "event: not JSON (%v)", err)
	}
	event, ok := value.(map[string]any)
	if !ok {
		return nil, invalid("event", "event: expected an object, got %s", kind(value))
	}
	kindText, ok := event["type"].(string)
	if !ok {
		return nil, nil
	}
	location, ok := t.events[kindText]
	if !ok {
		return nil, nil
	}
	var found any = event
	for _, part := range strings.Split(location, ".") {
		object, ok := found.(map[string]any)
		if !ok {
			return nil, nil
		}
		found = object[part]
	}
	if found == nil {
		return nil, nil
	}
	return fromValue(t, found)
}

// ToError is v itself if it is an *Error; any other error is wrapped as the
// wrap code with v as its cause, and any other value as a *WrappedValue cause.
func ToError(t *Taxonomy, v any) *Error {
	if e, ok := v.(*Error); ok && e != nil {
		return e
	}
	var cause error
	var message string
	if err, ok := v.(error); ok && err != nil {
		cause = err
		message = fmt.Sprintf("%T: %s", err, err.Error())
	} else {
		cause = &WrappedValue{Value: v}
		message = cause.Error()
	}
	e := Build(t, t.wrap.Code, nil)
	e.Message = message
	e.Cause = cause
	return e
}

// Build is an error of code with these details (declared fields, not checked:
// the typed constructors' types say what they hold), the omitted optional
// fields' defaults filled in, its message rendered from the template (else the
// meaning).
func Build(t *Taxonomy, code Code, details map[string]any) *Error {
	spec := t.specs[code]
	if spec == nil {
		spec = t.fallback
	}
	filled := make(map[string]any, len(details)+len(spec.Fields))
	for k, v := range details {
		filled[k] = notNil(v)
	}
	for _, field := range spec.Fields {
		_, ok := filled[field.Name]
		// A constant field holds its constant whatever a typed constructor was
		// given (issue 30 §7): its value is fixed for the code.
		if (!ok && field.Default != "") || field.Const != "" {
			filled[field.Name], _ = decode([]byte(field.Default))
		}
	}
	if spec == t.fallback && t.keeps {
		spec = &Spec{Code: code, Meaning: spec.Meaning, Retryable: spec.Retryable}
	}
	return &Error{
		Code:      spec.Code,
		WireCode:  string(spec.Code),
		Message:   render(spec, filled),
		Retryable: spec.Retryable,
		Details:   filled,
		tax:       t,
	}
}

// notNil is v, or an empty array or object for a nil slice or map (a details
// struct's required field left unset), which JSON would write as null.
func notNil(v any) any {
	value := reflect.ValueOf(v)
	switch {
	case value.Kind() == reflect.Slice && value.IsNil():
		return []any{}
	case value.Kind() == reflect.Map && value.IsNil():
		return map[string]any{}
	}
	return v
}

// New is an error of code with these details, checked as FromPayload checks a
// received error's: an unknown code is an *InvalidPayloadError about "code";
// details JSON cannot carry as every runtime reads it (NaN or an infinity, a
// cycle, a channel, a func, a complex number, a struct or a pointer, anything
// that marshals itself, a string that is no UTF-8), or past MaxDetailsDepth or
// MaxDetailsNodes, one about "details"; a missing or misfit field one naming it.
// Every Go integer type is a number.
func New(t *Taxonomy, code Code, details map[string]any) (*Error, error) {
	spec, ok := t.specs[code]
	if !ok && t.keeps {
		// No fallback (issue 30 §3): a well-formed unknown code is a root error.
		if _, problem := readCodeAt(t, wireValue(t, string(code)), "code"); problem != nil || !wellFormed(t, string(code)) {
			return nil, invalid("code", "code: %q is not a well-formed error code", string(code))
		}
		spec, ok = t.fallback, true
	}
	if !ok {
		return nil, invalid("code", "code: %q is not a code of the taxonomy", string(code))
	}
	if problem := detailsProblem(details, "details", true); problem != "" {
		return nil, invalid("details", "%s", problem)
	}
	if problem := fieldsProblem(spec.Fields, details); problem != nil {
		return nil, problem
	}
	return Build(t, code, details), nil
}

func render(spec *Spec, details map[string]any) string {
	if spec.Template == nil {
		return spec.Meaning
	}
	var out strings.Builder
	for _, piece := range spec.Template {
		out.WriteString(piece.Text)
		if piece.Field != "" {
			out.WriteString(text(details[piece.Field]))
		}
	}
	return out.String()
}

// text is a placeholder's value as every runtime writes it: strings as they
// are, booleans true/false, numbers as JavaScript's String(number).
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	}
	if n, ok := number(v); ok {
		return jsNumber(n)
	}
	return fmt.Sprint(v)
}

func jsNumber(n float64) string {
	switch {
	case n == 0:
		return "0"
	case math.IsNaN(n):
		return "NaN"
	case math.IsInf(n, 1):
		return "Infinity"
	case math.IsInf(n, -1):
		return "-Infinity"
	}
	if a := math.Abs(n); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	s := strconv.FormatFloat(n, 'e', -1, 64)
	mantissa, exponent, _ := strings.Cut(s, "e")
	sign, digits := exponent[:1], strings.TrimLeft(exponent[1:], "0")
	return mantissa + "e" + sign + digits
}

// number is v as a float64 if it is a JSON number (never a boolean): a
// json.Number, or a value of any Go integer or float type.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil || errors.Is(err, strconv.ErrRange)
	case float64:
		return v, true
	case int64:
		return float64(v), true
	case nil, bool, string:
		return 0, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// withConstants is received details (checked) with each constant field they
// lack filled in (issue 30 §7: written on every payload), in a copy (the
// received map is the caller's); the same map when none is lacking.
func withConstants(fields []Field, details map[string]any) map[string]any {
	copied := false
	for _, field := range fields {
		if field.Const == "" {
			continue
		}
		if _, ok := details[field.Name]; !ok {
			if !copied {
				filled := make(map[string]any, len(details)+1)
				for k, v := range details {
					filled[k] = v
				}
				details, copied = filled, true
			}
			details[field.Name], _ = decode([]byte(field.Default))
		}
	}
	return details
}

func fieldsProblem(fields []Field, details map[string]any) *InvalidPayloadError {
	return membersProblem(fields, details, "details.")
}

// membersProblem is the first problem of the details or of a nested object's
// members (issue 30 §7), each named by its path (prefix and its name): the
// deepest missing or misfitting member of a declared object
// (details.causes[1].reason). An undeclared member is kept.
func membersProblem(fields []Field, object map[string]any, prefix string) *InvalidPayloadError {
	for i := range fields {
		field := &fields[i]
		where := prefix + field.Name
		value, present := object[field.Name]
		if !present {
			if field.Required {
				return invalid(where, "%s: required, missing", where)
			}
			continue
		}
		if field.Const != "" {
			if want, _ := decode([]byte(field.Default)); !sameConstant(value, want) {
				return invalid(where, "%s: expected %s, the constant of its code, or none", where, field.Const)
			}
			continue
		}
		shape := Shape{Type: field.Type, Enum: field.Enum, Minimum: field.Minimum, Maximum: field.Maximum, Fields: field.Fields}
		if problem := shapeProblem(&shape, field.Items, value); problem != "" {
			if strings.HasPrefix(problem, "[") {
				return invalid(where, "%s%s", where, problem)
			}
			return invalid(where, "%s: %s", where, problem)
		}
		if problem := nestedProblem(&shape, field.Items, value, where); problem != nil {
			return problem
		}
	}
	return nil
}

// nestedProblem is the first problem of the members of v (of shape, its
// type already checked) as a nested typed object, or of each item of it as an
// array of them (details.causes[1].reason); nil when it declares none.
func nestedProblem(shape *Shape, items *Shape, v any, where string) *InvalidPayloadError {
	switch {
	case shape.Type == "object" && shape.Fields != nil:
		return membersProblem(shape.Fields, members(v), where+".")
	case shape.Type == "array" && items != nil && items.Type == "object" && items.Fields != nil:
		list := reflect.ValueOf(v)
		for i := 0; i < list.Len(); i++ {
			item := members(list.Index(i).Interface())
			if problem := membersProblem(items.Fields, item, fmt.Sprintf("%s[%d].", where, i)); problem != nil {
				return problem
			}
		}
	}
	return nil
}

// members is an object's members (a map with string keys, as decoded or as
// New is given it) in a map[string]any.
func members(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	value := reflect.ValueOf(v)
	out := make(map[string]any, value.Len())
	if value.Kind() == reflect.Map && value.Type().Key().Kind() == reflect.String {
		iter := value.MapRange()
		for iter.Next() {
			out[iter.Key().String()] = iter.Value().Interface()
		}
	}
	return out
}

var wanted = map[string]string{
	"string":  "a string",
	"integer": "an integer",
	"number":  "a number",
	"boolean": "a boolean",
	"array":   "an array",
	"object":  "an object",
}

// shapeProblem is what is wrong with v as a value of shape (items: an array's
// item shape), or "" if nothing is.
func shapeProblem(shape *Shape, items *Shape, v any) string {
	expected := "expected " + wanted[shape.Type] + ", got " + kind(v)
	switch shape.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return expected
		}
		if len(shape.Enum) > 0 {
			for _, allowed := range shape.Enum {
				if s == allowed {
					return ""
				}
			}
			quoted := make([]string, len(shape.Enum))
			for i, allowed := range shape.Enum {
				quoted[i] = strconv.Quote(allowed)
			}
			return fmt.Sprintf("expected one of %s, got %q", strings.Join(quoted, ", "), s)
		}
		return ""
	case "integer", "number":
		n, ok := number(v)
		if !ok {
			return expected
		}
		if shape.Type == "integer" && (math.IsInf(n, 0) || n != math.Trunc(n)) {
			return expected
		}
		if shape.Minimum != nil && n < *shape.Minimum {
			return "expected at least " + jsNumber(*shape.Minimum) + ", got " + jsNumber(n)
		}
		if shape.Maximum != nil && n > *shape.Maximum {
			return "expected at most " + jsNumber(*shape.Maximum) + ", got " + jsNumber(n)
		}
		return ""
	case "boolean":
		if _, ok := v.(bool); !ok {
			return expected
		}
		return ""
	case "array":
		list := reflect.ValueOf(v)
		if v == nil || (list.Kind() != reflect.Slice && list.Kind() != reflect.Array) {
			return expected
		}
		if items != nil {
			for i := 0; i < list.Len(); i++ {
				if problem := shapeProblem(items, nil, list.Index(i).Interface()); problem != "" {
					return fmt.Sprintf("[%d]: %s", i, problem)
				}
			}
		}
		return ""
	}
	if v != nil && reflect.ValueOf(v).Kind() == reflect.Map {
		return ""
	}
	return expected
}

// kind names the JSON type of v, as the messages do.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	if _, ok := number(v); ok {
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}
