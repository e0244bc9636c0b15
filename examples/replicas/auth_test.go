package main

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lockgen/lockgen/examples/replicas/cataloglock"
	"github.com/lockgen/lockgen/transport/natstransport"
	"github.com/lockgen/lockgen/transport/natstransport/embedded"
)

// auth/server.conf works: its members share the lock with credentials of
// their own, and its outsider can neither publish on the lock's subjects
// nor touch its group's bucket.
func TestServerConfig(t *testing.T) {
	s, err := embedded.StartConfig("auth/server.conf", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	const n = 3
	var locks []*cataloglock.Catalog
	for i := range n {
		ep, err := natstransport.Connect(s.ClientURL(), "catalog", i, n, natstransport.Lease(time.Second),
			natstransport.NATSOptions(nats.UserInfo("catalog-"+strconv.Itoa(i), "secret-"+strconv.Itoa(i))))
		if err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
		defer ep.Close()
		l, err := cataloglock.NewCatalog(i, n, ep, cataloglock.RetryAcrossEpochs())
		if err != nil {
			t.Fatalf("member %d joining: %v", i, err)
		}
		locks = append(locks, l)
	}
	for _, l := range locks {
		l.Lock()
		if err := l.Unlock(); err != nil {
			t.Fatal(err)
		}
	}

	// A member may open the bucket: the outsider's checks below can see
	// access where it is granted.
	member, err := nats.Connect(s.ClientURL(), nats.UserInfo("catalog-2", "secret-2"))
	if err != nil {
		t.Fatal(err)
	}
	defer member.Close()
	mjs, err := jetstream.New(member)
	if err != nil {
		t.Fatal(err)
	}
	mctx, mcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer mcancel()
	if _, err := mjs.KeyValue(mctx, "lockgen_catalog"); err != nil {
		t.Fatalf("a member cannot open the group's bucket: %v", err)
	}

	var mu sync.Mutex
	var denied []error
	out, err := nats.Connect(s.ClientURL(), nats.UserInfo("outsider", "outsider"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			mu.Lock()
			denied = append(denied, err)
			mu.Unlock()
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	out.Publish("lockgen.catalog.0", []byte{2, 2, 2, 2, 2})
	out.Flush()
	js, err := jetstream.New(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := js.KeyValue(ctx, "lockgen_catalog"); err == nil {
		t.Error("the outsider opened the group's bucket")
	}
	if _, err := js.Publish(ctx, "$KV.lockgen_catalog.member.0", []byte(`{"inc":1}`)); err == nil {
		t.Error("the outsider wrote a member's lease")
	}
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(denied) == 0 || !errors.Is(denied[0], nats.ErrPermissionViolation) {
		t.Errorf("the outsider's publish on the lock's subject was not refused: %v", denied)
	}
	for _, l := range locks {
		l.Lock()
		if err := l.Unlock(); err != nil {
			t.Fatal(err)
		}
	}
}
