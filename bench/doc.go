// Package bench holds the spec of the locks `make bench` measures
// (locks/locks.toml) and their generated package (locks), which is also
// stress-tested and explored like every generated package. The
// measurement itself is lockgen bench (package perf); its report is
// docs/performance.md.
package bench
