// The JSON values of details, as every taxogen runtime holds them: within the
// limits (MaxDetailsDepth, MaxDetailsNodes), numbers finite (a JSON number is a
// double everywhere: 1e400 is +Inf in JavaScript, and refused by all three), and,
// for the details New is given as Go values, made of what JSON itself carries.
package taxogen

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// detailsProblem is why details (under the name where) are refused, as
// "<where><path>: <problem>", or "" when they are JSON every runtime reads alike.
// given marks a caller's Go values (New), which are also held to JSON's own types:
// nil, bool, string, Go's integers and floats, json.Number, maps with string keys,
// slices and arrays; decoded JSON holds nothing else.
func detailsProblem(details any, where string, given bool) string {
	c := checker{given: given}
	if c.check(details, 0) == nil {
		return ""
	}
	// Map order is random: walk again in key order, so the problem named is the
	// first one, the same on every run (only a refusal pays for the sorting).
	c = checker{given: given, sorted: true}
	found := c.check(details, 0)
	var out strings.Builder
	out.WriteString(where)
	if !found.whole {
		for i := len(found.at) - 1; i >= 0; i-- {
			out.WriteString(found.at[i])
		}
	}
	text := out.String()
	if len(text) > 200 { // a key may be huge
		text = text[:197] + "..."
	}
	return text + ": " + found.why
}

// problem is what is wrong with a value: at its path (innermost part first) or,
// whole, with the details as a whole (too many values).
type problem struct {
	at    []string
	why   string
	whole bool
}

// identity is a container on the path being walked, so a cycle is named.
type identity struct {
	kind    reflect.Kind
	pointer uintptr
	length  int
}

type checker struct {
	nodes  int
	given  bool
	sorted bool
	path   map[identity]bool // given values only: decoded JSON has no cycles
}

var (
	marshalerType     = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	numberType        = reflect.TypeOf(json.Number(""))
	jsonNumber        = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)
)

// check walks v, in a container at depth (0: v is the details themselves).
// Recursion is bounded: a container deeper than MaxDetailsDepth is not entered.
func (c *checker) check(v any, depth int) *problem {
	c.nodes++
	if c.nodes > MaxDetailsNodes {
		return &problem{why: fmt.Sprintf("holds more than %d values", MaxDetailsNodes), whole: true}
	}
	switch v := v.(type) {
	case nil, bool:
		return nil
	case string:
		return c.text(v)
	case json.Number:
		return c.number(string(v))
	case float64:
		return finite(v)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return nil // every Go integer is a finite double, as JSON numbers are read
	case float32:
		return finite(float64(v))
	case map[string]any:
		if p := c.enter(v, depth); p != nil {
			return p
		}
		if c.given {
			defer c.leave(reflect.ValueOf(v))
		}
		if c.sorted {
			for _, key := range sortedKeys(v) {
				if p := c.member(key, v[key], depth); p != nil {
					return p
				}
			}
			return nil
		}
		for key, item := range v {
			if p := c.member(key, item, depth); p != nil {
				return p
			}
		}
		return nil
	case []any:
		if p := c.enter(v, depth); p != nil {
			return p
		}
		if c.given {
			defer c.leave(reflect.ValueOf(v))
		}
		for i, item := range v {
			if p := c.check(item, depth+1); p != nil {
				return p.under("[" + strconv.Itoa(i) + "]")
			}
		}
		return nil
	}
	if !c.given {
		return &problem{why: fmt.Sprintf("a %T is not a JSON value", v)}
	}
	return c.reflected(reflect.ValueOf(v), depth)
}

// reflected is check of a Go value of any other type that a caller gave.
func (c *checker) reflected(rv reflect.Value, depth int) *problem {
	t := rv.Type()
	if t != numberType && (t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)) {
		return &problem{why: fmt.Sprintf("a %s is not a JSON value (it marshals itself)", t)}
	}
	switch rv.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return nil // every Go integer is a finite double, as JSON numbers are read
	case reflect.Float32, reflect.Float64:
		return finite(rv.Float())
	case reflect.String:
		if t == numberType {
			return c.number(rv.String())
		}
		return c.text(rv.String())
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return &problem{why: fmt.Sprintf("a %s is not a JSON object (its keys are not strings)", t)}
		}
		if p := c.enter(rv.Interface(), depth); p != nil {
			return p
		}
		defer c.leave(rv)
		keys := rv.MapKeys()
		if c.sorted {
			sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		}
		for _, key := range keys {
			if p := c.member(key.String(), rv.MapIndex(key).Interface(), depth); p != nil {
				return p
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return &problem{why: fmt.Sprintf("a %s is not a JSON array (json.Marshal writes it as base64 text)", t)}
		}
		if p := c.enter(rv.Interface(), depth); p != nil {
			return p
		}
		defer c.leave(rv)
		for i := 0; i < rv.Len(); i++ {
			if p := c.check(rv.Index(i).Interface(), depth+1); p != nil {
				return p.under("[" + strconv.Itoa(i) + "]")
			}
		}
		return nil
	}
	return &problem{why: fmt.Sprintf("a %s is not a JSON value", t)}
}

// enter is the problem of entering the container v at depth, if any: too deep,
// or (given values) one the path already holds.
func (c *checker) enter(v any, depth int) *problem {
	if depth+1 > MaxDetailsDepth {
		return &problem{why: fmt.Sprintf("nested deeper than %d levels", MaxDetailsDepth)}
	}
	if !c.given {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Array || rv.Len() == 0 {
		return nil
	}
	id := identity{rv.Kind(), rv.Pointer(), rv.Len()}
	if c.path[id] {
		return &problem{why: "contains itself"}
	}
	if c.path == nil {
		c.path = map[identity]bool{}
	}
	c.path[id] = true
	return nil
}

// leave takes the container rv off the path.
func (c *checker) leave(rv reflect.Value) {
	if c.path != nil && rv.Kind() != reflect.Array && rv.Len() > 0 {
		delete(c.path, identity{rv.Kind(), rv.Pointer(), rv.Len()})
	}
}

// member is check of the member key of an object at depth.
func (c *checker) member(key string, item any, depth int) *problem {
	if p := c.text(key); p != nil {
		return p.under("." + key)
	}
	if p := c.check(item, depth+1); p != nil {
		return p.under("." + key)
	}
	return nil
}

// sortedKeys are m's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// text is the problem of a given string that is no UTF-8 (JSON text is, and
// json.Marshal would silently change it), if any.
func (c *checker) text(s string) *problem {
	if c.given && !utf8.ValidString(s) {
		return &problem{why: fmt.Sprintf("%s is not UTF-8", shown(strconv.Quote(s)))}
	}
	return nil
}

// number is the problem of a JSON number's text, if any: not finite as a double
// (1e400, or 400 digits), or, given, not a JSON number at all ("NaN").
func (c *checker) number(text string) *problem {
	if c.given && !jsonNumber.MatchString(text) {
		return &problem{why: fmt.Sprintf("%s is not a JSON number", shown(strconv.Quote(text)))}
	}
	if len(text) < 309 && !strings.ContainsAny(text, "eE") {
		return nil // under 309 digits before any point: below 1e308, finite
	}
	if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) {
		return &problem{why: fmt.Sprintf("%s is not a finite number", shown(text))}
	}
	return nil
}

// finite is the problem of a float that is NaN or infinite, if any.
func finite(f float64) *problem {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &problem{why: fmt.Sprintf("%s is not a finite number", jsNumber(f))}
	}
	return nil
}

// under is p, found inside the member or item part (".name", "[3]").
func (p *problem) under(part string) *problem {
	p.at = append(p.at, part)
	return p
}

// shown is text cut for a message.
func shown(text string) string {
	if len(text) <= 80 {
		return text
	}
	return text[:77] + "..."
}
