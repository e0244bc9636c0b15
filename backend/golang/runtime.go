package golang

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"regexp"
	"strings"
)

var (
	packageClause = regexp.MustCompile(`(?m)^package lockrt$`)
	netrtClause   = regexp.MustCompile(`(?m)^package netrt$`)
)

// The runtime is the fixed part of every generated package: the register
// types through which all shared state goes, and the waiting layer. It is
// the ordinary Go of package lockrt, compiled and tested there, and copied
// into each package with the package clause renamed.

//go:embed lockrt/runtime.go lockrt/check.go lockrt/wait.go netrt/netrt.go
var runtimeFS embed.FS

// CheckRuntimeFile is the runtime file of the lockgen_check build, which
// imports verify/sched; a package without tests leaves it out.
const CheckRuntimeFile = "lockgen_check.go"

// runtimeFiles maps lockrt's files to the generated package's.
var runtimeFiles = []struct{ src, dst string }{
	{"lockrt/runtime.go", "lockgen_runtime.go"},
	{"lockrt/check.go", CheckRuntimeFile},
	{"lockrt/wait.go", "lockgen_wait.go"},
}

// RuntimeNames names every runtime file a generated package may hold,
// shared-memory and message-passing: what a regeneration that needs one
// no longer removes.
func RuntimeNames() []string {
	out := []string{NetRuntimeFile}
	for _, f := range runtimeFiles {
		out = append(out, f.dst)
	}
	return out
}

// Runtime returns the package runtime files, identical for every package
// but for the package clause.
func Runtime(pkg string) ([]File, error) { return RuntimeControl(pkg, "") }

// PlainRuntime is the runtime of a package without tests: no check
// build, so no lockgen_check.go (which imports verify/sched), and the
// ordinary registers under every tag, so that the package also builds
// with -tags lockgen_check beside packages that use it.
func PlainRuntime(pkg string) ([]File, error) {
	files, err := Runtime(pkg)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, f := range files {
		if f.Name == CheckRuntimeFile {
			continue
		}
		if tag := []byte("//go:build !lockgen_check\n\n"); bytes.Contains(f.Data, tag) {
			f.Data = bytes.Replace(f.Data, tag, nil, 1)
		} else if bytes.Contains(f.Data, []byte("//go:build")) {
			return nil, fmt.Errorf("%s: a build constraint PlainRuntime does not know", f.Name)
		}
		out = append(out, f)
	}
	return out, nil
}

// RuntimeControl is Runtime with the negative control named control
// planted: every line marked "// control NAME: CODE" with that name has
// its code replaced by CODE. It fails if no line carries the name.
func RuntimeControl(pkg, control string) ([]File, error) {
	planted := control == ""
	var out []File
	for _, f := range runtimeFiles {
		src, err := runtimeFS.ReadFile(f.src)
		if err != nil {
			return nil, err
		}
		if control != "" {
			var n int
			src, n = plant(src, control)
			planted = planted || n > 0
		}
		clause := packageClause.FindIndex(src)
		if clause == nil {
			return nil, fmt.Errorf("%s: no package clause", f.src)
		}
		text := Header{Version: RecordedVersion(), Runtime: "backend/golang/lockrt"}.Text() + "\n" +
			string(src[:clause[0]]) + "package " + pkg + string(src[clause[1]:])
		data, err := format.Source([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.dst, err)
		}
		out = append(out, File{Name: f.dst, Data: data})
	}
	if !planted {
		return nil, fmt.Errorf("lockrt has no line marked for control %q", control)
	}
	return out, nil
}

// controlMark is "CODE // control NAME: REPLACEMENT" on one line.
var controlMark = regexp.MustCompile(`(?m)^(\s*)(.*?)\s*// control ([a-z-]+):(.*)$`)

// plant replaces the code of the lines marked for control and returns how
// many it replaced.
func plant(src []byte, control string) ([]byte, int) {
	n := 0
	out := controlMark.ReplaceAllFunc(src, func(line []byte) []byte {
		m := controlMark.FindSubmatch(line)
		if string(m[3]) != control {
			return line
		}
		n++
		return append(append([]byte{}, m[1]...), []byte(strings.TrimSpace(string(m[4]))+" // planted: control "+control)...)
	})
	return out, n
}
