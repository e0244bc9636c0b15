// Package harness is the test side of the tests that lockgen's tools
// generate around a lock (lockgen verify, the mutation runner): it runs one
// verification layer on a subject and logs what the layer found as one
// line of JSON, which the tool reads back from the test's output
// (Find). The tool gets the layer's figures as data, not a parse of its
// prose. The generating side is golang.Harness.
package harness

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
)

// Marker starts the line a harness test logs its finding on.
const Marker = "LOCKGEN-FINDING "

// StressFinding is what one Stress run found.
type StressFinding struct {
	Failures []StressFailure
	Passages int64
	Duration time.Duration
	Config   string // the run's configuration (verify.StressReport.Config)
	Summary  string // the run in one line (verify.StressReport.String)
}

// StressFailure is one violation Stress reported, its message cut to
// maxMessage bytes (a watchdog's stacks would swamp the log).
type StressFailure struct{ Kind, Msg string }

// ExploreFinding is what one Explore run found: the first failure (Kind
// "" if none) with its replay token and trace, and how far it searched.
type ExploreFinding struct {
	Kind, Message, Strategy, Token, Trace string
	Executions                            int
	Exhausted                             bool
	Summary                               string // verify.ExploreReport.String
}

// maxMessage bounds a stress failure's message in a finding.
const maxMessage = 600

// Stress runs verify.Stress on s with opts and logs its finding. The test
// fails as verify.Stress makes it fail.
func Stress(t *testing.T, s verify.Subject, opts ...verify.StressOption) {
	t.Helper()
	var rep verify.StressReport
	verify.Stress(t, s, append(opts, verify.StressReportTo(&rep))...)
	f := StressFinding{Passages: rep.Passages, Duration: rep.Duration, Config: rep.Config(), Summary: rep.String()}
	for _, x := range rep.Failures {
		msg := x.String()
		if len(msg) > maxMessage {
			msg = msg[:maxMessage] + " …"
		}
		f.Failures = append(f.Failures, StressFailure{string(x.Kind), msg})
	}
	log(t, f)
}

// Explore runs verify.Explore on s with opts and logs its finding. The
// test fails as verify.Explore makes it fail.
func Explore(t *testing.T, s verify.Subject, opts ...verify.ExploreOption) {
	t.Helper()
	var rep verify.ExploreReport
	verify.Explore(t, s, append(opts, verify.ExploreReportTo(&rep))...)
	f := ExploreFinding{Executions: rep.Executions, Exhausted: rep.Exhausted, Summary: rep.String()}
	if x := rep.Failure; x != nil {
		f.Kind, f.Message, f.Strategy, f.Token, f.Trace = string(x.Kind), x.Message, x.Strategy, x.Token, x.Trace
	}
	log(t, f)
}

// NoFIFO is s without its FIFO claim: no FIFO check, and no scheduling
// point where an acquire begins (a smaller search when the failure sought
// is not about order).
func NoFIFO(s verify.Subject) verify.Subject {
	s.FIFO = false
	return s
}

func log(t *testing.T, finding any) {
	t.Helper()
	b, err := json.Marshal(finding)
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	t.Logf("%s%s", Marker, b)
}

// Find decodes into v the last finding logged in a test's output; false if
// there is none (the test crashed or was killed before it logged).
func Find(output string, v any) bool {
	i := strings.LastIndex(output, Marker)
	if i < 0 {
		return false
	}
	line := output[i+len(Marker):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return json.Unmarshal([]byte(line), v) == nil
}
