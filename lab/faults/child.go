package faults

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/lockgen/lockgen/transport/natstransport"
)

// A child learns its part from the environment.
const (
	envChild = "LOCKGEN_FAULTS_CHILD" // the scenario's name: set in a child only
	envURL   = "LOCKGEN_FAULTS_NATS"  // the NATS server
	envRes   = "LOCKGEN_FAULTS_RESOURCE"
	envAlg   = "LOCKGEN_FAULTS_ALGORITHM"
	envID    = "LOCKGEN_FAULTS_ID"
	envN     = "LOCKGEN_FAULTS_N"
	envKey   = "LOCKGEN_FAULTS_KEY"
	envLease = "LOCKGEN_FAULTS_LEASE"
	envHold  = "LOCKGEN_FAULTS_HOLD"
)

// plantLock, set only by this package's tests in a child (TestMain, from
// envPlant), wraps each lock the child makes in a planted bug: the
// suite's negative control. Nil in every other build.
var plantLock func(lock) lock

// IsChild reports whether this process is a child the suite started: its
// main (or TestMain) must then call Child.
func IsChild() bool { return os.Getenv(envChild) != "" }

// Child runs a child's part, one process of a lock group, until it is
// killed: it joins, makes passages through the parent's fenced resource
// and, whenever its lock fails (its lease ran out while it was stopped,
// the server restarted), joins again as a new incarnation.
func Child() {
	if err := runChild(); err != nil {
		fmt.Fprintln(os.Stderr, "faults child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// childEnv is a child's configuration.
type childEnv struct {
	scenario, url, res, alg string
	id, n                   int
	key                     []byte
	lease, hold             time.Duration
}

func readChildEnv() (childEnv, error) {
	c := childEnv{scenario: os.Getenv(envChild), url: os.Getenv(envURL), res: os.Getenv(envRes), alg: os.Getenv(envAlg),
		key: []byte(os.Getenv(envKey))}
	var err error
	if c.id, err = strconv.Atoi(os.Getenv(envID)); err != nil {
		return c, err
	}
	if c.n, err = strconv.Atoi(os.Getenv(envN)); err != nil {
		return c, err
	}
	if c.lease, err = time.ParseDuration(os.Getenv(envLease)); err != nil {
		return c, err
	}
	if c.hold, err = time.ParseDuration(os.Getenv(envHold)); err != nil {
		return c, err
	}
	if catalogue[c.alg] == nil {
		return c, fmt.Errorf("no algorithm %q", c.alg)
	}
	return c, nil
}

// child is a running child.
type child struct {
	childEnv
	http *http.Client
	rng  *rand.Rand
}

func runChild() error {
	env, err := readChildEnv()
	if err != nil {
		return err
	}
	c := &child{childEnv: env, http: &http.Client{Timeout: 30 * time.Second},
		rng: rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))}
	for {
		ep, err := natstransport.Connect(c.url, c.scenario, c.id, c.n, natstransport.Key(c.key), natstransport.Lease(c.lease))
		if err != nil {
			time.Sleep(50 * time.Millisecond) // the server is restarting
			continue
		}
		l, err := catalogue[c.alg](c.id, c.n, ep)
		if err != nil {
			ep.Close()
			c.event(0, "join-refused", err.Error())
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if plantLock != nil {
			l = plantLock(l)
		}
		inc := ep.Incarnation()
		c.event(inc, "joined", "")
		stop := make(chan struct{})
		go c.reportStats(ep, stop)
		err = c.passages(l, ep, inc)
		close(stop)
		c.stats(ep)
		c.event(inc, "failed", err.Error())
		l.Close()
		ep.Close()
	}
}

// passages makes passages until the lock fails, and returns why.
func (c *child) passages(l lock, ep *natstransport.Endpoint, inc int64) error {
	rw, _ := l.(rwLock)
	for k := int64(0); ; k++ {
		write := rw == nil || c.rng.IntN(3) == 0
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var err error
		if write {
			err = l.LockContext(ctx)
		} else {
			err = rw.RLockContext(ctx)
		}
		cancel()
		if err != nil {
			if l.Err() != nil {
				return l.Err()
			}
			c.event(inc, "request-failed", err.Error())
			continue
		}
		fence := l.Fence()
		ok1 := c.access(inc, k, write, fence, false)
		time.Sleep(time.Duration(c.rng.Int64N(int64(c.hold) + 1)))
		ok2 := c.access(inc, k, write, fence, true)
		if write {
			err = l.Unlock()
		} else {
			err = rw.RUnlock()
		}
		if (!ok1 || !ok2) && err == nil {
			c.event(inc, "violation", fmt.Sprintf("a live holder was fenced off (token %#x, accesses accepted: %v, %v; the lock's error now %v, the endpoint's %v): the lock granted a newer token while it was inside",
				fence, ok1, ok2, l.Err(), ep.Err()))
		}
		if err != nil {
			return err
		}
		time.Sleep(time.Duration(c.rng.Int64N(int64(c.hold) + 1)))
	}
}

// access is one access to the parent's resource.
func (c *child) access(inc, k int64, write bool, fence int64, last bool) bool {
	q := url.Values{"s": {c.scenario}, "p": {strconv.Itoa(c.id)}, "inc": {strconv.FormatInt(inc, 10)}, "k": {strconv.FormatInt(k, 10)},
		"w": {strconv.FormatBool(write)}, "f": {strconv.FormatInt(fence, 10)}, "last": {strconv.FormatBool(last)}}
	body, err := c.get("/access", q)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults child: the resource:", err)
		os.Exit(1) // the parent is gone
	}
	return body == "1"
}

// event tells the parent what happened to this process.
func (c *child) event(inc int64, kind, msg string) {
	c.get("/event", url.Values{"s": {c.scenario}, "p": {strconv.Itoa(c.id)}, "inc": {strconv.FormatInt(inc, 10)},
		"kind": {kind}, "msg": {msg}})
}

// reportStats sends the endpoint's counts to the parent every 200 ms.
func (c *child) reportStats(ep *natstransport.Endpoint, stop <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.stats(ep)
		case <-stop:
			return
		}
	}
}

func (c *child) stats(ep *natstransport.Endpoint) {
	s := ep.Stats()
	c.get("/stats", url.Values{"s": {c.scenario}, "p": {strconv.Itoa(c.id)}, "inc": {strconv.FormatInt(ep.Incarnation(), 10)},
		"dropped": {strconv.FormatInt(s.Dropped(), 10)}})
}

func (c *child) get(path string, q url.Values) (string, error) {
	resp, err := c.http.Get("http://" + c.res + path + "?" + q.Encode())
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(resp.Status)
	}
	return string(body), err
}
