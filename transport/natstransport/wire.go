package natstransport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
)

// The wire: a message to process to is the varints [wireVersion, from,
// from's incarnation, to's incarnation, seq, the lock's words...] and,
// with a key, the HMAC-SHA256 of "lockgen/<name>/<to>/" and those bytes.
// seq counts the sender's messages to that incarnation of the receiver
// from 1.
const (
	wireVersion = 1
	wireHeader  = 5
	macLen      = sha256.Size
)

// mac is the HMAC of a message to process to (or of a record, to = -1).
func (e *Endpoint) mac(to int, data []byte) []byte {
	h := hmac.New(sha256.New, e.o.key)
	h.Write([]byte("lockgen/" + e.name + "/" + strconv.Itoa(to) + "/"))
	h.Write(data)
	return h.Sum(nil)
}

// Send publishes msg to process to, addressed to the incarnation the
// newest view has; to a process that is no member it sends nothing (the
// lock's epoch is over for it anyway).
func (e *Endpoint) Send(to int, msg []int64) error {
	if to < 0 || to >= e.n {
		return fmt.Errorf("natstransport: no process %d of %d", to, e.n)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return e.err
	}
	toInc, ok := e.incs[to]
	if !ok {
		e.stats.unaddressed.Add(1)
		return nil
	}
	k := [2]int64{int64(to), toInc}
	seq := e.seqOut[k] + 1
	e.seqOut[k] = seq
	data := make([]byte, 0, 8*(wireHeader+len(msg))+macLen)
	for _, w := range [wireHeader]int64{wireVersion, int64(e.self), e.inc, toInc, seq} {
		data = binary.AppendVarint(data, w)
	}
	for _, w := range msg {
		data = binary.AppendVarint(data, w)
	}
	if e.o.key != nil {
		data = append(data, e.mac(to, data)...)
	}
	// Published with mu held: one process's messages leave in the order
	// of their sequence numbers.
	if err := e.nc.Publish(e.subject(to), data); err != nil {
		return fmt.Errorf("natstransport: %w", err)
	}
	e.stats.sent.Add(1)
	return nil
}

// receive takes a message in. What a member cannot have sent to this
// incarnation is dropped and counted, never fatal: undecodable, of
// another wire, with a MAC that does not verify, for another incarnation,
// or a sequence number seen already. With a key, a skipped sequence
// number (a lost message, which the lock cannot do without) fails the
// endpoint.
func (e *Endpoint) receive(m *nats.Msg) {
	data := m.Data
	if e.o.key != nil {
		if len(data) < macLen {
			e.stats.malformed.Add(1)
			return
		}
		body, sum := data[:len(data)-macLen], data[len(data)-macLen:]
		if !hmac.Equal(sum, e.mac(e.self, body)) {
			e.stats.forged.Add(1)
			return
		}
		data = body
	}
	var words []int64
	for len(data) > 0 {
		w, k := binary.Varint(data)
		if k <= 0 {
			e.stats.malformed.Add(1)
			return
		}
		words = append(words, w)
		data = data[k:]
	}
	if len(words) < wireHeader || words[0] != wireVersion || words[1] < 0 || words[1] >= int64(e.n) {
		e.stats.malformed.Add(1)
		return
	}
	from, fromInc, toInc, seq := words[1], words[2], words[3], words[4]
	e.mu.Lock()
	if toInc != e.inc {
		e.mu.Unlock()
		e.stats.stale.Add(1)
		return
	}
	k := [2]int64{from, fromInc}
	last := e.seqIn[k]
	if seq <= last {
		e.mu.Unlock()
		e.stats.replayed.Add(1)
		return
	}
	e.seqIn[k] = seq
	e.mu.Unlock()
	if seq != last+1 {
		e.stats.gaps.Add(1)
		if e.o.key != nil {
			e.fail(fmt.Errorf("natstransport: process %d lost messages %d to %d from process %d", e.self, last+1, seq-1, from))
			return
		}
	}
	e.stats.delivered.Add(1)
	e.box.Put(words[wireHeader:])
}
