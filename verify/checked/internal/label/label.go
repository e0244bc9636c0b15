// Package label names a checked primitive's call site for the traces of
// the controlled scheduler: the file:line of the first caller outside
// package verify/checked.
package label

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// ours are the packages whose frames are not the user's.
var ours = map[string]bool{
	"github.com/lockgen/lockgen/verify/checked":                true,
	"github.com/lockgen/lockgen/verify/checked/atomic":         true,
	"github.com/lockgen/lockgen/verify/checked/sync":           true,
	"github.com/lockgen/lockgen/verify/checked/runtime":        true,
	"github.com/lockgen/lockgen/verify/checked/internal/label": true,
}

// pkgOf is the package path of a function name like "a/b/pkg.(*T).M".
func pkgOf(fn string) string {
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot < 0 {
		return fn
	}
	return fn[:slash+1+dot]
}

// Caller returns "file.go:42" for the user's call into a checked primitive.
func Caller() string {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !ours[pkgOf(f.Function)] {
			return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		}
		if !more {
			return "?"
		}
	}
}
