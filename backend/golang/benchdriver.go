package golang

import (
	"bytes"
	"fmt"
	"go/format"

	"github.com/lockgen/lockgen/shape"
)

// BenchDriver returns the test file `lockgen bench` adds to a scratch
// package holding the locks cs: TestLockgenBench hands perf/driver one Subject per
// lock, whose loop calls the lock's own API on its concrete type (no
// interface or adapter between the measurement and the lock).
func BenchDriver(pkg string, cs []Config) (File, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "//go:build !lockgen_check\n\n%s\npackage %s\n\n", Header{Version: RecordedVersion(), Tool: "lockgen bench"}.Text(), pkg)
	b.WriteString("import (\n\t\"testing\"\n\n\t\"github.com/lockgen/lockgen/perf\"\n\t\"github.com/lockgen/lockgen/perf/driver\"\n)\n\n")
	b.WriteString("// TestLockgenBench runs the measurement lockgen bench describes in\n// LOCKGEN_BENCH_CONFIG (skipped without it).\n")
	b.WriteString("func TestLockgenBench(t *testing.T) {\n\tdriver.Main(t, []perf.Subject{\n")
	for i := range cs {
		c := &cs[i]
		g, err := newGen(c)
		if err != nil {
			return File{}, err
		}
		b.WriteString(g.benchSubject())
	}
	b.WriteString("\t})\n}\n")
	data, err := format.Source(b.Bytes())
	if err != nil {
		return File{}, fmt.Errorf("bench driver: %v\n%s", err, b.Bytes())
	}
	return File{Name: "lockgen_bench_test.go", Data: data}, nil
}

// benchSubject is one lock's perf.Subject literal.
func (g *gen) benchSubject() string {
	c := g.c
	procs := 0
	if g.api.TakesIDs() {
		procs = c.Params.N
	}
	// The process's way to the lock, and how a verb is called on it.
	var setup string
	call := func(verb string) string { return "lk." + verb + "()" }
	switch g.api {
	case shape.IDs:
		setup = "\t\t\tid := w.ID\n"
		call = func(verb string) string { return "lk." + verb + "(id)" }
	case shape.Handles:
		setup = "\t\t\th := lk.NewHandle()\n"
		call = func(verb string) string { return "h." + verb + "()" }
	case shape.CallerNodes:
		setup = fmt.Sprintf("\t\t\tvar nd %s\n", g.nodeType())
		call = func(verb string) string { return "lk." + verb + "(&nd)" }
	}
	// Holders that may share the critical section must not touch the
	// exclusive counter.
	work := "w.Critical()"
	if c.Mode.Holders(c.Params.K) > 1 {
		work = "w.Shared()"
	}
	var loop string
	if c.Mode.Readers() {
		loop = fmt.Sprintf(`				t := w.Begin()
				if w.Read() {
					%s
					w.Enter(t)
					w.Shared()
					%s
				} else {
					%s
					w.Enter(t)
					w.Critical()
					%s
				}
				w.Outside()
`, call("RLock"), call("RUnlock"), call("Lock"), call("Unlock"))
	} else {
		loop = fmt.Sprintf(`				t := w.Begin()
				%s
				w.Enter(t)
				%s
				%s
				w.Outside()
`, call("Lock"), work, call("Unlock"))
	}
	return fmt.Sprintf(`		{Name: %q, Mode: %q, K: %d, Procs: %d, FIFO: %v, Algorithm: %q, Wait: %q, Nodes: %q,
			New: func() any { return New%s() },
			Run: func(l any, w *perf.Worker) {
				lk := l.(*%s)
%s				for w.Next() {
%s				}
			}},
`, c.Name, string(c.Mode), c.Params.K, procs, g.props().FIFOClaim(), c.Entry.Name, c.Wait, c.Nodes, c.Name, c.Name, setup, loop)
}
