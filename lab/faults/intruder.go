package faults

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// intrusion is what an outsider did to a group, and what it got.
type intrusion struct {
	sent     int64 // forged, replayed and malformed messages sent
	dropped  int64 // counted as dropped by the group's endpoints meanwhile
	failures int   // the group's locks that failed meanwhile
	grants   int64 // the group's grants meanwhile (it went on)
}

// intrude listens on the group's subjects, then sends its processes k
// messages, a third each forged (well-formed words under a guessed MAC),
// replayed (what it heard) and malformed, and records what the group's
// endpoints counted as dropped meanwhile. No server restart falls within
// an intrusion: one would refuse the intruder's connection, or lose
// messages it counts as sent.
func (s *scenario) intrude(k int) {
	s.run.pause.RLock()
	defer s.run.pause.RUnlock()
	nc, err := nats.Connect(s.run.natsURL())
	if err != nil {
		s.mu.Lock()
		s.errors = append(s.errors, fmt.Sprintf("%s: the intruder cannot connect: %v", s.name, err))
		s.mu.Unlock()
		return
	}
	defer nc.Close()
	var mu sync.Mutex
	var heard []*nats.Msg
	sub, err := nc.Subscribe("lockgen."+s.name+".*", func(m *nats.Msg) {
		mu.Lock()
		if len(heard) < 4096 {
			heard = append(heard, m)
		}
		mu.Unlock()
	})
	if err != nil {
		return
	}
	time.Sleep(s.run.cfg.Lease) // listen a while
	sub.Unsubscribe()
	s.mu.Lock()
	unexplained, grants := len(s.unexplained), s.grants
	s.mu.Unlock()
	dropped := s.droppedTotal()
	s.run.trace("%s: the intruder sends %d messages", s.name, k)
	defer s.run.trace("%s: the intruder is done", s.name)
	rng := rand.New(rand.NewPCG(uint64(k), 3))
	var sent int64
	for i := range k {
		mu.Lock()
		to, data := s.intruderMessage(i, rng, heard)
		mu.Unlock()
		if nc.Publish(to, data) == nil {
			sent++
		}
		if i%200 == 199 {
			nc.Flush()
			time.Sleep(5 * time.Millisecond)
		}
	}
	nc.Flush()
	time.Sleep(time.Second) // the children's counts follow every 200 ms
	s.mu.Lock()
	defer s.mu.Unlock()
	s.intruded = intrusion{sent: sent, failures: len(s.unexplained) - unexplained, grants: s.grants - grants}
	var total int64
	for _, d := range s.dropped {
		total += d
	}
	s.intruded.dropped = total - dropped
}

// intruderMessage is the intruder's i-th message and its subject: a
// third each forged, replayed (one of heard) and malformed. A replay
// with nothing heard (a group quiet while the intruder listened) is
// forged instead, so that the intruder sends every message asked of it.
func (s *scenario) intruderMessage(i int, rng *rand.Rand, heard []*nats.Msg) (to string, data []byte) {
	to = fmt.Sprintf("lockgen.%s.%d", s.name, rng.IntN(s.n))
	switch {
	case i%3 == 1 && len(heard) > 0: // replayed
		m := heard[rng.IntN(len(heard))]
		return m.Subject, m.Data
	case i%3 == 2: // malformed
		data = make([]byte, rng.IntN(40))
		for j := range data {
			data[j] = byte(rng.Uint32()) | 0x80 // varints that never end
		}
		return to, data
	}
	// Forged: the wire's words, a MAC of the right length.
	data = []byte{2, byte(2 * rng.IntN(s.n)), 2, 2, byte(2 + 2*rng.IntN(60)), 4, 0, 0, 2}
	for range 32 {
		data = append(data, byte(rng.Uint32()))
	}
	return to, data
}
