// The sentinels go_is names (issue 30 §6), asked with errors.Is of a generated
// Go package: tests/test_native.py copies it into the module of
// tests/cases/errno_native (as native/), whose YAML says ENOENT answers
// fs.ErrNotExist, EEXIST and ENOTEMPTY fs.ErrExist, EPERM and EACCES
// fs.ErrPermission, and no other code any sentinel.
package native

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	gen "TAXOGEN_GO_MODULE"
)

func TestGoIsAnswersTheSentinels(t *testing.T) {
	cases := []struct {
		err  error
		want []error
	}{
		{gen.NewEnoentError(gen.EnoentDetails{}), []error{fs.ErrNotExist}},
		{gen.NewEexistError(gen.EexistDetails{}), []error{fs.ErrExist}},
		{gen.NewEnotemptyError(gen.EnotemptyDetails{}), []error{fs.ErrExist}},
		{gen.NewEpermError(gen.EpermDetails{}), []error{fs.ErrPermission}},
		{gen.NewEaccesError(gen.EaccesDetails{}), []error{fs.ErrPermission}},
		{gen.NewEioError(gen.EioDetails{}), nil},
		{gen.NewEisdirError(gen.EisdirDetails{}), nil},
	}
	all := []error{fs.ErrNotExist, fs.ErrExist, fs.ErrPermission, fs.ErrInvalid, fs.ErrClosed}
	for _, c := range cases {
		wrapped := fmt.Errorf("reading config: %w", c.err)
		for _, sentinel := range all {
			want := false
			for _, w := range c.want {
				want = want || w == sentinel
			}
			if errors.Is(c.err, sentinel) != want || errors.Is(wrapped, sentinel) != want {
				t.Errorf("errors.Is(%v, %v) = %v, want %v", c.err, sentinel, !want, want)
			}
		}
		// Still an error of its own code, as before.
		if !errors.Is(wrapped, c.err) {
			t.Errorf("errors.Is(wrapped, %v) is false", c.err)
		}
	}
}

func TestAReceivedErrorAnswersAsItsCode(t *testing.T) {
	err, bad := gen.FromPayload([]byte(`{"errno": 2, "strerror": "No such file or directory"}`))
	if bad != nil {
		t.Fatalf("FromPayload: %v", bad)
	}
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
		t.Errorf("a received ENOENT does not answer fs.ErrNotExist alone")
	}
}
