package natstransport

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/lockgen/lockgen/generated/carvalho-roucairol"
	"github.com/lockgen/lockgen/generated/dcrew"
	"github.com/lockgen/lockgen/generated/dijkstra-ring"
	"github.com/lockgen/lockgen/generated/lamport-1978"
	"github.com/lockgen/lockgen/generated/le-lann"
	"github.com/lockgen/lockgen/generated/naimi-trehel"
	"github.com/lockgen/lockgen/generated/raymond"
	"github.com/lockgen/lockgen/generated/ricart-agrawala"
	"github.com/lockgen/lockgen/generated/ricart-agrawala-token"
	"github.com/lockgen/lockgen/generated/suzuki-kasami"
	"github.com/lockgen/lockgen/templates/distributed"
	"github.com/lockgen/lockgen/transport/natstransport/embedded"
	"github.com/lockgen/lockgen/verify/netstress"
)

// testLease is the tests' lease: short, so that a removal takes about a
// second, and long beside the pauses of a loaded machine (its renewals,
// every quarter of it, were seen 100 ms late here); twice that under
// -race, where an innocent process lost its 1 s lease once in a dozen
// runs with the machine's load at 24.
var testLease = map[bool]time.Duration{false: time.Second, true: 2 * time.Second}[raceEnabled]

// natsServer starts an embedded NATS server with JetStream for the test.
func natsServer(t testing.TB) *embedded.Server {
	t.Helper()
	s, err := embedded.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// connect returns n endpoints of one lock.
func connect(t testing.TB, url, name string, n int, opts ...Option) []*Endpoint {
	t.Helper()
	var eps []*Endpoint
	for i := range n {
		e, err := Connect(url, name, i, n, append([]Option{Lease(testLease)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		eps = append(eps, e)
	}
	return eps
}

// joinAll joins every endpoint as a group of algorithm alg and waits
// until each has a view of all of them.
func joinAll(t testing.TB, eps []*Endpoint, alg string) {
	t.Helper()
	for i, e := range eps {
		if err := e.Join(i, len(eps), alg); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range eps {
		for {
			select {
			case v := <-e.Views():
				if len(v) == 2+len(eps) {
					goto next
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("endpoint %d: no view of all %d", i, len(eps))
			}
		}
	next:
	}
}

// Each pair's messages arrive in order while every endpoint sends to
// every other at once, itself included.
func TestFIFOPerPair(t *testing.T) {
	s := natsServer(t)
	const n, per = 3, 300
	eps := connect(t, s.ClientURL(), "fifo", n, Key([]byte("k")))
	joinAll(t, eps, "fifo-test")
	var wg sync.WaitGroup
	for from := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range per {
				for to := range n {
					if err := eps[from].Send(to, []int64{int64(from), int64(k), -1 << 40}); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for to := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := make([]int64, n)
			for range n * per {
				m := <-eps[to].Receive()
				if len(m) != 3 || m[2] != -1<<40 {
					t.Errorf("endpoint %d: message %v decoded wrong", to, m)
					return
				}
				if m[1] != next[m[0]] {
					t.Errorf("endpoint %d: from %d got #%d, want #%d", to, m[0], m[1], next[m[0]])
					return
				}
				next[m[0]]++
			}
		}()
	}
	wg.Wait()
}

// catalogue is every generated distributed lock of the catalogue, as
// netstress sees it.
var catalogue = []struct {
	name string
	rw   bool
	new  func(self, n int, tr netstress.Transport) (netstress.Lock, error)
}{
	{"carvalho-roucairol", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return carvalhoroucairol.NewCarvalhoRoucairol(self, n, tr)
	}},
	{"dcrew", true, func(self, n int, tr netstress.Transport) (netstress.Lock, error) { return dcrew.NewDCREW(self, n, tr) }},
	{"dijkstra-ring", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return dijkstraring.NewDijkstraRing(self, n, tr)
	}},
	{"lamport-1978", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return lamport.NewLamport(self, n, tr)
	}},
	{"le-lann", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return lelann.NewLeLann(self, n, tr)
	}},
	{"naimi-trehel", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return naimitrehel.NewNaimiTrehel(self, n, tr)
	}},
	{"raymond", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return raymond.NewRaymond(self, n, tr)
	}},
	{"ricart-agrawala", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return ricartagrawala.NewRicartAgrawala(self, n, tr)
	}},
	{"ricart-agrawala-token", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return ricartagrawalatoken.NewRicartAgrawalaToken(self, n, tr)
	}},
	{"suzuki-kasami", false, func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return suzukikasami.NewSuzukiKasami(self, n, tr)
	}},
}

// Every generated distributed lock of the catalogue over NATS: netstress
// with four processes, each on its own connection, joined as a group.
func TestLocksOverNATS(t *testing.T) {
	s := natsServer(t)
	covered := map[string]bool{}
	for _, c := range catalogue {
		covered[c.name] = true
	}
	for _, e := range distributed.All() {
		if !covered[e.Name] {
			t.Errorf("the catalogue's %s is not run over NATS here", e.Name)
		}
	}
	for _, c := range catalogue {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // most of a group's time is its first lock-delay
			r := netstress.Run(t, netstress.Subject{
				New: c.new,
				Connect: func(n int) ([]netstress.Transport, func(), error) {
					eps := connect(t, s.ClientURL(), c.name, n, Key([]byte(c.name)))
					out := make([]netstress.Transport, n)
					for i, e := range eps {
						out[i] = e
					}
					return out, func() {}, nil
				},
				Passages: 60,
			})
			if c.rw && r.MaxReaders < 2 {
				t.Errorf("readers never shared the lock (%d reads)", r.Reads)
			}
			t.Logf("%d reads, %d writes, up to %d readers at once", r.Reads, r.Writes, r.MaxReaders)
		})
	}
}

// locks makes process i's dCREW lock over eps[i] for each i, all joined.
func locks(t *testing.T, eps []*Endpoint, opts ...dcrew.Option) []*dcrew.DCREW {
	t.Helper()
	var ls []*dcrew.DCREW
	for i, e := range eps {
		l, err := dcrew.NewDCREW(i, len(eps), e, opts...)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	return ls
}

// Losing the server fails the endpoints and the lock on them, rather than
// leaving a process waiting for a token that can no longer come.
func TestLostServerFailsTheLock(t *testing.T) {
	s := natsServer(t)
	eps := connect(t, s.ClientURL(), "lost", 2)
	ls := locks(t, eps)
	ls[0].Lock()
	s.Shutdown()
	select {
	case <-ls[1].Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the lock did not fail after the server went away")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ls[1].LockContext(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("LockContext after the server went away: %v, want the transport's error", err)
	}
	if eps[1].Err() == nil {
		t.Error("the endpoint reports no error")
	}
	<-ls[0].Done()
	if err := ls[0].Unlock(); err == nil {
		t.Error("Unlock of a passage during which the server went away reports nothing")
	}
}

func TestConnectRejects(t *testing.T) {
	if _, err := Connect("nats://127.0.0.1:1", "a.b", 0, 2); err == nil {
		t.Error("a lock name with a dot accepted")
	}
	if _, err := Connect("nats://127.0.0.1:1", "x", 2, 2); err == nil {
		t.Error("self = n accepted")
	}
	if _, err := Connect("nats://127.0.0.1:1", "x", 0, 2); err == nil {
		t.Error("connected to nothing")
	}
}

// A join is refused with a clear error when its n, its algorithm or its
// key is not the group's, or when a live process holds its id.
func TestJoinRefuses(t *testing.T) {
	s := natsServer(t)
	eps := connect(t, s.ClientURL(), "refuse", 2, Key([]byte("right")))
	locks(t, eps)
	for _, c := range []struct {
		name, want string
		join       func() error
	}{
		{"another n", "with n = 2", func() error {
			e := connect(t, s.ClientURL(), "refuse", 3, Key([]byte("right")))[2]
			_, err := dcrew.NewDCREW(2, 3, e)
			return err
		}},
		{"another algorithm", "runs dcrew", func() error {
			e := connect(t, s.ClientURL(), "refuse", 2, Key([]byte("right")))[1]
			return e.Join(1, 2, "naimi-trehel")
		}},
		{"another key", "does not verify", func() error {
			e := connect(t, s.ClientURL(), "refuse", 2, Key([]byte("wrong")))[1]
			_, err := dcrew.NewDCREW(1, 2, e)
			return err
		}},
		{"no key", "give its key", func() error {
			e := connect(t, s.ClientURL(), "refuse", 2)[1]
			_, err := dcrew.NewDCREW(1, 2, e)
			return err
		}},
		{"a live process's id", "already a member", func() error {
			e := connect(t, s.ClientURL(), "refuse", 2, Key([]byte("right")))[1]
			_, err := dcrew.NewDCREW(1, 2, e)
			return err
		}},
	} {
		start := time.Now()
		err := c.join()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		if d := time.Since(start); d > 2*testLease {
			t.Errorf("%s: refused after %v", c.name, d)
		}
	}
}

// crash stops a process as kill -9 would, as far as the group can tell:
// its endpoint goes silent without leaving.
func crash(e *Endpoint) { e.Close() }

// When a holder crashes, the survivors' next grant comes within the
// lease plus a second, in a new epoch whose fencing tokens are above the
// crashed holder's; a request in flight returns ErrEpochChanged.
func TestCrashedHolderIsReplaced(t *testing.T) {
	s := natsServer(t)
	eps := connect(t, s.ClientURL(), "crash", 3)
	ls := locks(t, eps)
	ls[2].Lock()
	old := ls[2].Fence()
	inFlight := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := ls[1].LockContext(ctx)
		if err == nil {
			ls[1].Unlock()
		}
		inFlight <- err
	}()
	time.Sleep(100 * time.Millisecond)
	crashed := time.Now()
	crash(eps[2])
	if err := <-inFlight; !errors.Is(err, dcrew.ErrEpochChanged) {
		t.Errorf("a request in flight at the crash: %v, want ErrEpochChanged", err)
	}
	ls[0].Lock() // asks again in the new epoch
	took := time.Since(crashed)
	if fence := ls[0].Fence(); fence>>netstress.EpochShift <= old>>netstress.EpochShift || fence <= old {
		t.Errorf("the new epoch's token %#x is not above the crashed holder's %#x", fence, old)
	}
	if err := ls[0].Unlock(); err != nil {
		t.Error(err)
	}
	if took > testLease+time.Second {
		t.Errorf("the survivors' next grant came %v after the crash, want at most the lease (%v) plus 1s", took, testLease)
	}
	t.Logf("next grant %v after the crash", took)
	if err := ls[2].Unlock(); err == nil {
		t.Error("the crashed holder's Unlock reports nothing")
	}
}

// A process that restarts with the same id joins once its old
// incarnation's lease is over, and the group goes on with it.
func TestRestartWithTheSameID(t *testing.T) {
	s := natsServer(t)
	eps := connect(t, s.ClientURL(), "restart", 3)
	ls := locks(t, eps)
	ls[1].Lock()
	crash(eps[1])
	e := connect(t, s.ClientURL(), "restart", 3)[1]
	start := time.Now()
	l, err := dcrew.NewDCREW(1, 3, e)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*testLease {
		t.Errorf("the restarted process joined after %v", d)
	}
	for _, l := range []*dcrew.DCREW{ls[0], l, ls[2], l} {
		l.Lock()
		if err := l.Unlock(); err != nil {
			t.Fatal(err)
		}
	}
}

// A process that leaves with Close is gone at once: the others go on
// without waiting out a lease.
func TestCloseLeaves(t *testing.T) {
	s := natsServer(t)
	eps := connect(t, s.ClientURL(), "leave", 3)
	ls := locks(t, eps)
	ls[0].Lock()
	ls[0].Unlock()
	start := time.Now()
	if err := ls[0].Close(); err != nil {
		t.Fatal(err)
	}
	ls[1].Lock()
	ls[1].Unlock()
	ls[2].Lock()
	ls[2].Unlock()
	if d := time.Since(start); d > testLease {
		t.Errorf("after a Close the others took %v, more than a lease", d)
	}
}

// An outsider on the lock's subjects (forged, replayed and malformed
// messages) gets nothing in: no grant (netstress sees every access), no
// failed endpoint, and every message counted as dropped.
func TestIntruder(t *testing.T) {
	s := natsServer(t)
	key := []byte("secret")
	var eps []*Endpoint
	done := make(chan struct{})
	sentc := make(chan int64, 1)
	r := netstress.Run(t, netstress.Subject{
		New: func(self, n int, tr netstress.Transport) (netstress.Lock, error) { return dcrew.NewDCREW(self, n, tr) },
		Connect: func(n int) ([]netstress.Transport, func(), error) {
			eps = connect(t, s.ClientURL(), "intruded", n, Key(key))
			out := make([]netstress.Transport, n)
			for i, e := range eps {
				out[i] = e
			}
			go func() { sentc <- intrude(t, s.ClientURL(), "intruded", n, done) }()
			return out, func() { close(done) }, nil
		},
		Passages: 60,
	})
	sent := <-sentc
	var dropped int64
	for i, e := range eps {
		st := e.Stats()
		dropped += st.Dropped()
		if err := e.Err(); err != nil {
			t.Errorf("endpoint %d failed: %v", i, err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	t.Logf("%d writes, %d reads; %d messages from the intruder, %d dropped", r.Writes, r.Reads, sent, dropped)
	if dropped < sent/2 || sent == 0 {
		t.Errorf("%d of the intruder's %d messages counted as dropped", dropped, sent)
	}
}

// intrude listens on the lock's subjects and, until done, sends each
// process forged messages, replays of what it heard and malformed ones;
// it returns how many it sent.
func intrude(t testing.TB, url, name string, n int, done <-chan struct{}) int64 {
	nc, err := nats.Connect(url)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer nc.Close()
	var mu sync.Mutex
	var heard []*nats.Msg
	sub, err := nc.Subscribe("lockgen."+name+".*", func(m *nats.Msg) {
		mu.Lock()
		if len(heard) < 1000 {
			heard = append(heard, m)
		}
		mu.Unlock()
	})
	if err != nil {
		t.Error(err)
		return 0
	}
	defer sub.Unsubscribe()
	var sent int64
	for k := 0; ; k++ {
		select {
		case <-done:
			return sent
		case <-time.After(200 * time.Microsecond):
		}
		to := fmt.Sprintf("lockgen.%s.%d", name, k%n)
		var data []byte
		switch k % 3 {
		case 0: // forged: a well-formed message under a guessed key
			data = append([]byte{2, 2, 2, 2, 2, 4, 1, 0, 2, 0}, make([]byte, macLen)...)
		case 1: // replayed
			mu.Lock()
			if len(heard) > 0 {
				m := heard[k%len(heard)]
				to, data = m.Subject, m.Data
			}
			mu.Unlock()
		case 2: // malformed
			data = []byte{0xff, 0xff, 0xff}
		}
		if data == nil {
			continue
		}
		if nc.Publish(to, data) == nil {
			sent++
		}
	}
}
