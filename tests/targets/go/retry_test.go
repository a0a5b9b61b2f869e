// Issue 30 §8 in a generated Go package: RetryAfter() is the value of the
// details field retry_after names, in seconds, as a time.Duration; 0 where
// the field is absent or the code names none.
// tests/test_retry_after.py copies it into the module of tests/cases/oauth_device
// (as retry/), whose slow_down names its interval.
package retry

import (
	"encoding/json"
	"testing"
	"time"

	gen "TAXOGEN_GO_MODULE"
)

func TestRetryAfterIsTheFieldInSeconds(t *testing.T) {
	ten := int64(10)
	err := gen.NewSlowDownError(gen.SlowDownDetails{Interval: &ten})
	if err.RetryAfter() != 10*time.Second {
		t.Errorf("RetryAfter: got %v, want 10s", err.RetryAfter())
	}
	if got := gen.NewSlowDownError(gen.SlowDownDetails{}).RetryAfter(); got != 0 {
		t.Errorf("no interval: got %v, want 0", got)
	}
	if got := gen.NewInvalidRequestError().RetryAfter(); got != 0 {
		t.Errorf("a code naming no retry field: got %v, want 0", got)
	}
}

func TestRetryAfterIsReadFromTheWire(t *testing.T) {
	for body, want := range map[string]time.Duration{
		`{"error":"slow_down","error_description":"d","interval":5}`:                    5 * time.Second,
		`{"error":"slow_down","error_description":"d"}`:                                 0,
		`{"error":"authorization_pending","error_description":"d","interval":5}`:        0,
		`{"error":"slow_down","error_description":"d","interval":0}`:                    0,
		`{"error":"slow_down","error_description":"d","interval":3600,"error_uri":"u"}`: time.Hour,
	} {
		err, problem := gen.FromPayload([]byte(body))
		if problem != nil {
			t.Fatalf("%s: %v", body, problem)
		}
		if err.RetryAfter() != want {
			t.Errorf("%s: got %v, want %v", body, err.RetryAfter(), want)
		}
		if _, bad := json.Marshal(err); bad != nil {
			t.Errorf("%s: %v", body, bad)
		}
	}
}
