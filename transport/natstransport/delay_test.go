package natstransport

import (
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// The one-way delay of a message over the embedded server, which
// docs/distributed.md's "Failure detection's cost" turns renewal periods
// into message delays with: half the median round trip of a request
// answered by its subscriber, each side on its own connection as the
// endpoints are (go test -run TestOneWayDelay -v ./transport/natstransport;
// it only measures, and a loaded machine measures more).
func TestOneWayDelay(t *testing.T) {
	s := natsServer(t)
	a, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Subscribe("echo", func(m *nats.Msg) { m.Respond(m.Data) }); err != nil {
		t.Fatal(err)
	}
	b.Flush()
	var rtts []time.Duration
	for range 2000 {
		start := time.Now()
		if _, err := a.Request("echo", []byte("x"), time.Second); err != nil {
			t.Fatal(err)
		}
		rtts = append(rtts, time.Since(start))
	}
	slices.Sort(rtts)
	t.Logf("one-way delay over the embedded server: %v (half the median round trip; p10 %v, p90 %v)",
		rtts[len(rtts)/2]/2, rtts[len(rtts)/10]/2, rtts[9*len(rtts)/10]/2)
}
