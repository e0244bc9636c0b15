// Package broken does not compile, for gotest's own tests.
package broken

import "testing"

func TestBroken(t *testing.T) { undefined() }
