package faults

import (
	"context"

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
	"github.com/lockgen/lockgen/transport/natstransport"
)

// lock is what the suite needs of a generated distributed lock.
type lock interface {
	LockContext(context.Context) error
	Unlock() error
	Fence() int64
	Done() <-chan struct{}
	Err() error
	Close() error
}

// rwLock is a generated distributed reader/writer lock.
type rwLock interface {
	lock
	RLockContext(context.Context) error
	RUnlock() error
}

// catalogue makes process self's lock of each catalogue entry over ep;
// a request in flight at a change of epoch asks again.
var catalogue = map[string]func(self, n int, ep *natstransport.Endpoint) (lock, error){
	"carvalho-roucairol": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return carvalhoroucairol.NewCarvalhoRoucairol(self, n, ep, carvalhoroucairol.RetryAcrossEpochs())
	},
	"dcrew": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return dcrew.NewDCREW(self, n, ep, dcrew.RetryAcrossEpochs())
	},
	"dijkstra-ring": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return dijkstraring.NewDijkstraRing(self, n, ep, dijkstraring.RetryAcrossEpochs())
	},
	"lamport-1978": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return lamport.NewLamport(self, n, ep, lamport.RetryAcrossEpochs())
	},
	"le-lann": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return lelann.NewLeLann(self, n, ep, lelann.RetryAcrossEpochs())
	},
	"naimi-trehel": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return naimitrehel.NewNaimiTrehel(self, n, ep, naimitrehel.RetryAcrossEpochs())
	},
	"raymond": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return raymond.NewRaymond(self, n, ep, raymond.RetryAcrossEpochs())
	},
	"ricart-agrawala": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return ricartagrawala.NewRicartAgrawala(self, n, ep, ricartagrawala.RetryAcrossEpochs())
	},
	"ricart-agrawala-token": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return ricartagrawalatoken.NewRicartAgrawalaToken(self, n, ep, ricartagrawalatoken.RetryAcrossEpochs())
	},
	"suzuki-kasami": func(self, n int, ep *natstransport.Endpoint) (lock, error) {
		return suzukikasami.NewSuzukiKasami(self, n, ep, suzukikasami.RetryAcrossEpochs())
	},
}
