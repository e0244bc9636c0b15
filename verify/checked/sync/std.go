//go:build !lockgen_check

package sync

import "sync"

// The standard types: checking costs nothing in a normal build.
type (
	Locker    = sync.Locker
	Mutex     = sync.Mutex
	RWMutex   = sync.RWMutex
	Cond      = sync.Cond
	WaitGroup = sync.WaitGroup
	Once      = sync.Once
)

// NewCond returns a new Cond with Locker l.
func NewCond(l Locker) *Cond { return sync.NewCond(l) }
