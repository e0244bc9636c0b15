package natstransport

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The group's keys in its bucket (docs/distributed.md, "Keys"): the
// epoch record, and one lease per member.
const epochKey = "epoch"

func memberKey(id int) string { return "member." + strconv.Itoa(id) }

// record is the value of the epoch key.
type record struct {
	V         int      `json:"v"`
	N         int      `json:"n"`
	Algorithm string   `json:"algorithm"`
	Epoch     int64    `json:"epoch"`
	Members   []member `json:"members"`
	DelayMs   int64    `json:"delay_ms"`
	MAC       string   `json:"mac,omitempty"`
}

type member struct {
	ID  int   `json:"id"`
	Inc int64 `json:"inc"`
}

// lease is the value of a member key.
type lease struct {
	Inc int64 `json:"inc"`
}

// epochBase is where epoch numbers count milliseconds from: an epoch is
// at least the milliseconds since then when it is made, and a lock opens
// it only once the clock has reached it.
var epochBase = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func clockEpoch() int64 { return int64(time.Since(epochBase) / time.Millisecond) }

// renewal is the renewal and polling period, lockDelay how long a lease
// must be seen unrenewed before it is removed.
func (e *Endpoint) renewal() time.Duration   { return e.o.lease / 4 }
func (e *Endpoint) lockDelay() time.Duration { return e.o.lease + e.o.lease/10 }

// encode returns rec's value, with its MAC under the key.
func (e *Endpoint) encode(rec record) []byte {
	rec.MAC = ""
	data, err := json.Marshal(rec)
	if err != nil {
		panic(err) // a record always encodes
	}
	if e.o.key == nil {
		return data
	}
	rec.MAC = hex.EncodeToString(e.mac(-1, data))
	data, _ = json.Marshal(rec)
	return data
}

// decode parses an epoch record and checks its MAC.
func (e *Endpoint) decode(data []byte) (record, error) {
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("natstransport: the group's epoch record is malformed: %w", err)
	}
	if e.o.key == nil && rec.MAC != "" {
		return rec, errors.New("natstransport: the group authenticates its messages: give its key (natstransport.Key)")
	}
	if e.o.key != nil {
		sum, _ := hex.DecodeString(rec.MAC)
		if !bytes.Equal(e.encode(rec), data) || len(sum) != macLen {
			return rec, errors.New("natstransport: the group's epoch record does not verify with this key (another key, or written by someone without it)")
		}
	}
	return rec, nil
}

func (e *Endpoint) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), e.o.lease)
}

// Join makes the process a member of its group (netrt's Group). It
// refuses another n or algorithm than the group's, and an id that a live
// incarnation holds; an id whose incarnation has stopped renewing it is
// taken over once its lease is over (up to the lock-delay). Views follow.
func (e *Endpoint) Join(self, n int, algorithm string) error {
	if self != e.self || n != e.n {
		return fmt.Errorf("natstransport: process %d of %d joins on the endpoint of process %d of %d", self, n, e.self, e.n)
	}
	e.mu.Lock()
	joined := e.joined
	e.mu.Unlock()
	if joined {
		return fmt.Errorf("natstransport: process %d has joined already", e.self)
	}
	if err := e.Err(); err != nil {
		return err
	}
	fits := func(rec record) error {
		if rec.N != e.n || rec.Algorithm != algorithm {
			return fmt.Errorf("natstransport: process %d: the group %s runs %s with n = %d, not %s with n = %d", e.self, e.name, rec.Algorithm, rec.N, algorithm, e.n)
		}
		return nil
	}
	// 1. The group's n and algorithm.
	ctx, cancel := e.ctx()
	entry, err := e.kv.Get(ctx, epochKey)
	cancel()
	switch {
	case err == nil:
		rec, err := e.decode(entry.Value())
		if err != nil {
			return err
		}
		if err := fits(rec); err != nil {
			return err
		}
	case !errors.Is(err, jetstream.ErrKeyNotFound):
		return fmt.Errorf("natstransport: process %d joining: %w", e.self, err)
	}
	// 2. Claim the id.
	if err := e.claim(); err != nil {
		return err
	}
	// 3. The epoch: make it, or propose this process in it.
	value := e.encode(record{V: 1, N: e.n, Algorithm: algorithm, Epoch: clockEpoch(),
		Members: []member{{e.self, e.inc}}, DelayMs: e.lockDelay().Milliseconds()})
	ctx, cancel = e.ctx()
	_, err = e.kv.Create(ctx, epochKey, value)
	cancel()
	if errors.Is(err, jetstream.ErrKeyExists) {
		err = e.propose(func(rec record) (record, bool, error) {
			if err := fits(rec); err != nil {
				return rec, false, err
			}
			rec.Members = slices.DeleteFunc(slices.Clone(rec.Members), func(m member) bool { return m.ID == e.self })
			rec.Members = append(rec.Members, member{e.self, e.inc})
			slices.SortFunc(rec.Members, func(a, b member) int { return a.ID - b.ID })
			return rec, true, nil
		})
	}
	if err != nil {
		ctx, cancel := e.ctx()
		e.kv.Delete(ctx, memberKey(e.self), jetstream.LastRevision(e.rev))
		cancel()
		return err
	}
	// 4. The loops.
	e.loops.Add(3)
	go e.renewLoop()
	go e.watchLoop()
	go e.viewLoop()
	return nil
}

// claim creates the process's member key, taking it over from an
// incarnation whose lease is over; the create is the first renewal.
func (e *Endpoint) claim() error {
	value, _ := json.Marshal(lease{e.inc})
	var seenRev uint64
	var seenAt time.Time
	for {
		sent := time.Now()
		ctx, cancel := e.ctx()
		rev, err := e.kv.Create(ctx, memberKey(e.self), value)
		cancel()
		if err == nil {
			e.mu.Lock()
			e.joined, e.rev = true, rev
			e.renewed(sent)
			e.mu.Unlock()
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return fmt.Errorf("natstransport: process %d joining: %w", e.self, err)
		}
		// Another incarnation holds the id: alive if it renews.
		ctx, cancel = e.ctx()
		entry, err := e.kv.Get(ctx, memberKey(e.self))
		cancel()
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			continue // it left meanwhile
		case err != nil:
			return fmt.Errorf("natstransport: process %d joining: %w", e.self, err)
		case seenRev == 0:
			seenRev, seenAt = entry.Revision(), time.Now()
		case entry.Revision() != seenRev:
			var other lease
			json.Unmarshal(entry.Value(), &other)
			return fmt.Errorf("natstransport: process %d is already a member (incarnation %d), and it renews its lease", e.self, other.Inc)
		case time.Since(seenAt) >= e.lockDelay():
			// Its lease is over: take the id over.
			ctx, cancel := e.ctx()
			err := e.kv.Delete(ctx, memberKey(e.self), jetstream.LastRevision(seenRev))
			cancel()
			if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
				return fmt.Errorf("natstransport: process %d joining: %w", e.self, err)
			}
			seenRev = 0
			continue
		}
		select {
		case <-time.After(min(e.renewal(), time.Until(seenAt.Add(e.lockDelay())))):
		case <-e.stop:
			return e.Err()
		}
	}
}

// renewed extends the lease from a renewal sent at sent; mu is held.
func (e *Endpoint) renewed(sent time.Time) {
	e.leaseUntil = sent.Add(e.o.lease)
	if e.lease == nil {
		e.lease = time.AfterFunc(time.Until(e.leaseUntil), e.expire)
	} else {
		e.lease.Reset(time.Until(e.leaseUntil))
	}
}

// expire fails the endpoint when its lease has run out.
func (e *Endpoint) expire() {
	e.mu.Lock()
	over := time.Now().After(e.leaseUntil)
	e.mu.Unlock()
	if over {
		e.fail(fmt.Errorf("natstransport: process %d's lease expired (no renewal for %v)", e.self, e.o.lease))
	}
}

// renewLoop renews the lease every quarter of it.
func (e *Endpoint) renewLoop() {
	defer e.loops.Done()
	value, _ := json.Marshal(lease{e.inc})
	tick := time.NewTicker(e.renewal())
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-e.stop:
			return
		}
		e.mu.Lock()
		rev, leaving := e.rev, e.leaving
		e.mu.Unlock()
		if leaving {
			return
		}
		sent := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), e.o.lease/2)
		next, err := e.kv.Update(ctx, memberKey(e.self), value, rev)
		cancel()

		switch {
		case err == nil:
			e.mu.Lock()
			lapsed := time.Now().After(e.leaseUntil)
			if !lapsed {
				e.rev = next
				e.renewed(sent)
			}
			e.mu.Unlock()
			if lapsed {
				e.fail(fmt.Errorf("natstransport: process %d's lease expired before its renewal came back", e.self))
				return
			}
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
			e.mu.Lock()
			leaving := e.leaving
			e.mu.Unlock()
			if !leaving {
				e.fail(fmt.Errorf("natstransport: process %d was removed from the group (its lease was taken over)", e.self))
			}
			return
		}
		// Any other error (a slow or absent server): the next period
		// tries again; the lease's timer fails the endpoint meanwhile.
	}
}

// viewLoop watches the epoch record and hands the lock its views.
func (e *Endpoint) viewLoop() {
	defer e.loops.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := e.kv.Watch(ctx, epochKey)
	if err != nil {
		e.fail(fmt.Errorf("natstransport: process %d watching the group: %w", e.self, err))
		return
	}
	defer w.Stop()
	for {
		var entry jetstream.KeyValueEntry
		select {
		case entry = <-w.Updates():
		case <-e.stop:
			return
		}
		if entry == nil || entry.Operation() != jetstream.KeyValuePut {
			continue
		}
		rec, err := e.decode(entry.Value())
		if err != nil {
			continue // not the group's: a record without the key's MAC is nobody's word
		}
		e.view(rec)
	}
}

// view takes an epoch record in: a newer epoch with this process as a
// member goes to the lock; one without it, after one with it, means the
// process was removed.
func (e *Endpoint) view(rec record) {
	e.mu.Lock()
	if _, ok := e.seen[rec.Epoch]; !ok {
		e.seen[rec.Epoch] = seenEpoch{time.Now(), time.Duration(rec.DelayMs) * time.Millisecond}
	}
	if rec.Epoch <= e.last || e.err != nil {
		e.mu.Unlock()
		return
	}
	in := slices.Contains(rec.Members, member{e.self, e.inc})
	if !in {
		was, leaving := e.member, e.leaving
		e.mu.Unlock()
		switch {
		case was && leaving:
			e.fail(errLeft) // its watcher saw it go first
		case was:
			e.fail(fmt.Errorf("natstransport: process %d was removed from the group in epoch %d", e.self, rec.Epoch))
		}
		return
	}
	e.member, e.last = true, rec.Epoch
	select {
	case e.newView <- struct{}{}: // the watch may have a new predecessor
	default:
	}
	clear(e.incs)
	e.ring = e.ring[:0]
	for _, m := range rec.Members {
		e.incs[m.ID], e.ring = m.Inc, append(e.ring, m.ID)
	}
	delay := time.Duration(rec.DelayMs) * time.Millisecond
	if open := epochBase.Add(time.Duration(rec.Epoch) * time.Millisecond); time.Until(open) > delay {
		delay = time.Until(open) // a lock opens an epoch only once the clock has reached it
	}
	v := []int64{rec.Epoch, int64(delay)}
	for _, id := range e.ring {
		v = append(v, int64(id))
	}
	e.mu.Unlock()
	e.views.Put(v)
}

// Views returns the channel the group's views arrive on (netrt's Group):
// [epoch, lock-delay in nanoseconds, member ids...].
func (e *Endpoint) Views() <-chan []int64 { return e.views.Out() }

// watchLoop watches the lease of the process's predecessor in the ring
// of the newest view's members (a watch on its member key: one message
// per renewal), and removes it once it has seen the same revision for the
// lock-delay (docs/distributed.md, "Watch").
func (e *Endpoint) watchLoop() {
	defer e.loops.Done()
	var (
		pred    = -1
		predInc int64
		w       jetstream.KeyWatcher
		updates <-chan jetstream.KeyValueEntry
		seenRev uint64
		expel   *time.Timer
		expelC  <-chan time.Time
	)
	stopWatch := func() {
		if w != nil {
			w.Stop()
		}
		w, updates, seenRev = nil, nil, 0
		if expel != nil {
			expel.Stop()
		}
		expelC = nil
	}
	defer stopWatch()
	watch := func() {
		e.mu.Lock()
		p, pInc := e.predecessor()
		e.mu.Unlock()
		if p == pred && pInc == predInc && w != nil {
			return
		}
		stopWatch()
		if pred, predInc = p, pInc; pred < 0 {
			return
		}
		var err error
		if w, err = e.kv.Watch(context.Background(), memberKey(pred)); err != nil {
			w = nil // the retry tick tries again
			return
		}
		updates = w.Updates()
	}
	retry := time.NewTicker(e.renewal())
	defer retry.Stop()
	watch()
	for {
		select {
		case <-e.stop:
			return
		case <-e.newView:
			watch()
		case <-retry.C:
			watch()
		case entry, ok := <-updates:
			var l lease
			switch {
			case !ok:
				stopWatch()
			case entry == nil: // the initial value is in: none means gone
				if seenRev == 0 {
					e.remove(pred, predInc)
				}
			case entry.Operation() != jetstream.KeyValuePut || json.Unmarshal(entry.Value(), &l) != nil || l.Inc != predInc:
				e.remove(pred, predInc) // it left, was removed, or restarted
			default:
				seenRev = entry.Revision()
				if expel == nil {
					expel = time.NewTimer(e.lockDelay())
				} else {
					expel.Reset(e.lockDelay())
				}
				expelC = expel.C
			}
		case <-expelC:
			expelC = nil
			ctx, cancel := e.ctx()
			err := e.kv.Delete(ctx, memberKey(pred), jetstream.LastRevision(seenRev))
			cancel()
			if err == nil {
				e.remove(pred, predInc)
			} // otherwise it renewed meanwhile: its update is on its way
		}
	}
}

// predecessor is the member before this process in the newest view's
// ring, by id (-1 if it is alone); mu is held.
func (e *Endpoint) predecessor() (int, int64) {
	i := slices.Index(e.ring, e.self)
	if i < 0 || len(e.ring) < 2 {
		return -1, 0
	}
	p := e.ring[(i+len(e.ring)-1)%len(e.ring)]
	return p, e.incs[p]
}

// NewEpoch proposes the next epoch with the same members (netrt's Group):
// the current one has used up its fencing tokens.
func (e *Endpoint) NewEpoch() error {
	e.mu.Lock()
	last := e.last
	e.mu.Unlock()
	return e.propose(func(rec record) (record, bool, error) {
		return rec, rec.Epoch == last, nil // a newer epoch is new enough
	})
}

// remove proposes the epoch without member (id, inc).
func (e *Endpoint) remove(id int, inc int64) {
	e.propose(without(member{id, inc}))
}

// without is the change that takes m out of the members.
func without(m member) func(record) (record, bool, error) {
	return func(rec record) (record, bool, error) {
		n := len(rec.Members)
		rec.Members = slices.DeleteFunc(slices.Clone(rec.Members), func(x member) bool { return x == m })
		return rec, len(rec.Members) != n, nil
	}
}

// propose applies change to the epoch record until a compare-and-set
// succeeds: the next epoch number (at least the clock's), the lock-delay
// this endpoint still owes the current epoch. Nothing to change, nothing
// proposed.
func (e *Endpoint) propose(change func(record) (next record, changed bool, err error)) error {
	for attempt := 0; ; attempt++ {
		select {
		case <-e.stop:
			return e.Err()
		default:
		}
		ctx, cancel := e.ctx()
		entry, err := e.kv.Get(ctx, epochKey)
		cancel()
		if err != nil {
			if attempt > 3 {
				return fmt.Errorf("natstransport: process %d proposing an epoch: %w", e.self, err)
			}
			continue
		}
		rec, err := e.decode(entry.Value())
		if err != nil {
			return err
		}
		next, changed, err := change(rec)
		if err != nil {
			return err
		}
		if !changed {
			return nil
		}
		e.mu.Lock()
		owed := time.Duration(rec.DelayMs) * time.Millisecond
		if s, ok := e.seen[rec.Epoch]; ok {
			owed = s.delay - time.Since(s.at)
		}
		e.mu.Unlock()
		next.Epoch = max(rec.Epoch+1, clockEpoch())
		next.DelayMs = max(0, owed.Milliseconds()+1)
		if owed <= 0 {
			next.DelayMs = 0
		}
		ctx, cancel = e.ctx()
		_, err = e.kv.Update(ctx, epochKey, e.encode(next), entry.Revision())
		cancel()
		if err == nil {
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && attempt > 3 {
			return fmt.Errorf("natstransport: process %d proposing an epoch: %w", e.self, err)
		}
	}
}

// errLeft is the endpoint's error after its process left.
var errLeft = errors.New("natstransport: the process left its group")

// Leave leaves the group (netrt's Group). Clean: the process holds
// nothing, so its member key goes at once and the others go on without
// it. Not clean: its lease is left to run out. Either way the endpoint
// stops.
func (e *Endpoint) Leave(clean bool) error {
	e.mu.Lock()
	joined, failed := e.joined, e.err != nil
	e.leaving = true // no more renewals
	e.mu.Unlock()
	if !joined || failed || !clean {
		e.Close()
		return nil
	}
	var err error
	for range 10 {
		e.mu.Lock()
		rev := e.rev
		e.mu.Unlock()
		ctx, cancel := e.ctx()
		err = e.kv.Delete(ctx, memberKey(e.self), jetstream.LastRevision(rev))
		cancel()
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			break
		}
		time.Sleep(e.renewal() / 10) // a renewal was on its way: its revision comes next
	}
	if err == nil {
		err = e.propose(without(member{e.self, e.inc}))
		if errors.Is(e.Err(), errLeft) {
			err = nil // an epoch without it came first
		}
	}
	e.fail(errLeft)
	e.loops.Wait()
	if err != nil {
		return fmt.Errorf("natstransport: process %d leaving: %w", e.self, err)
	}
	return nil
}
