package sync

import (
	"context"
	"time"
)

// Parker parks and unparks one goroutine: a one-token semaphore that
// starts empty. Park takes the token, waiting for it; Unpark deposits it
// (tokens do not accumulate). The zero value is ready. A lock gives each
// waiter a Parker of its own and unparks exactly the waiter it lets in.
type Parker struct{ p parker }

// Park waits for the token and takes it.
func (p *Parker) Park() { p.p.park() }

// ParkTimeout waits at most d for the token; it reports whether it got it.
func (p *Parker) ParkTimeout(d time.Duration) bool { return p.p.parkTimeout(d) }

// ParkContext waits for the token until ctx is done: it returns nil with
// the token taken, or ctx.Err() (an Unpark that comes later leaves its
// token for the next park, as with ParkTimeout). Under lockgen_check a context that
// verify.Explore hands the lock (its LockContext calls) is cancelled by
// the scheduler, as a choice, while the goroutine waits here.
func (p *Parker) ParkContext(ctx context.Context) error {
	if p.p.parkContext(ctx) {
		return nil
	}
	return ctx.Err()
}

// Unpark deposits the token, waking the parked goroutine if there is one.
func (p *Parker) Unpark() { p.p.unpark() }
