package natstransport

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

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
	"github.com/lockgen/lockgen/verify/netstress"
)

// natsServer starts an embedded NATS server for the test: nothing needs
// to be installed.
func natsServer(t *testing.T) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

// connect returns n connected endpoints of one lock, every peer ready.
func connect(t testing.TB, url, name string, n int) ([]*Endpoint, error) {
	var eps []*Endpoint
	for i := range n {
		e, err := Connect(url, name, i, n)
		if err != nil {
			return nil, err
		}
		eps = append(eps, e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, e := range eps {
		if err := e.WaitPeers(ctx); err != nil {
			return nil, err
		}
	}
	return eps, nil
}

// Each pair's messages arrive in order while every endpoint sends to
// every other at once, itself included.
func TestFIFOPerPair(t *testing.T) {
	s := natsServer(t)
	const n, per = 3, 300
	eps, err := connect(t, s.ClientURL(), "fifo", n)
	if err != nil {
		t.Fatal(err)
	}
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
	for _, e := range eps {
		e.Close()
	}
}

// Every generated distributed lock of the catalogue over NATS: netstress
// with four processes, each on its own connection.
func TestLocksOverNATS(t *testing.T) {
	s := natsServer(t)
	locks := []struct {
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
	covered := map[string]bool{}
	for _, c := range locks {
		covered[c.name] = true
	}
	for _, e := range distributed.All() {
		if !covered[e.Name] {
			t.Errorf("the catalogue's %s is not run over NATS here", e.Name)
		}
	}
	for _, c := range locks {
		t.Run(c.name, func(t *testing.T) {
			r := netstress.Run(t, netstress.Subject{
				New: c.new,
				Connect: func(n int) ([]netstress.Transport, func(), error) {
					eps, err := connect(t, s.ClientURL(), c.name, n)
					if err != nil {
						return nil, nil, err
					}
					out := make([]netstress.Transport, n)
					for i, e := range eps {
						out[i] = e
					}
					return out, func() {
						for _, e := range eps {
							e.Close()
						}
					}, nil
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

// Losing the server fails the endpoints and the lock on them, rather than
// leaving a process waiting for a token that can no longer come.
func TestLostServerFailsTheLock(t *testing.T) {
	s := natsServer(t)
	eps, err := connect(t, s.ClientURL(), "lost", 2)
	if err != nil {
		t.Fatal(err)
	}
	l0, err := dcrew.NewDCREW(0, 2, eps[0])
	if err != nil {
		t.Fatal(err)
	}
	l1, err := dcrew.NewDCREW(1, 2, eps[1])
	if err != nil {
		t.Fatal(err)
	}
	l0.Lock()
	s.Shutdown()
	select {
	case <-l1.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the lock did not fail after the server went away")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := l1.LockContext(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("LockContext after the server went away: %v, want the transport's error", err)
	}
	if eps[1].Err() == nil {
		t.Error("the endpoint reports no error")
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

// A process that goes silent (its endpoint closed, as if it died) fails
// the others' endpoints within the timeout, and their locks report it.
func TestSilentPeerFailsTheLock(t *testing.T) {
	s := natsServer(t)
	eps, err := connect(t, s.ClientURL(), "silent", 3)
	if err != nil {
		t.Fatal(err)
	}
	l0, err := dcrew.NewDCREW(0, 3, eps[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		e.WatchPeers(20*time.Millisecond, time.Second) // a live peer answers well within 1 s, even under -race on a loaded CI machine
	}
	l0.Lock()
	l0.Unlock()
	eps[2].Close()
	select {
	case <-l0.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the lock did not report the silent peer")
	}
	if err := l0.Err(); err == nil || !strings.Contains(err.Error(), "process 2 has not answered") {
		t.Errorf("Err = %v, want the silent process named", err)
	}
	eps[1].Close()
	eps[0].Close()
}
