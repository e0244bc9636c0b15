// Package tune chooses a lock's variant on the user's own benchmarks
// (lockgen tune). For one lock of a spec it lists candidate variants of
// the same API (candidate.go: across algorithms and their knobs, with the
// standard lock always among them), generates each under the lock's own
// type name into a go command overlay, never into the user's tree
// (variant.go), builds the user's benchmarks once per candidate and runs
// them in interleaved rounds within a time budget (run.go), compares
// every candidate with the current variant as benchstat does, through
// golang.org/x/perf's benchmath (stats.go), runs the winner's generated
// tests under -race before recommending it (check.go), and writes the
// winner back into the spec with the evidence in a comment (write.go).
package tune
