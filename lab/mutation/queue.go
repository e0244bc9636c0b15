package mutation

import (
	"context"
	"sync"
)

// queue is a priority job queue run by a fixed pool of workers: lower
// priority values first, FIFO within a priority.
type queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    map[int][]func(context.Context)
	pending int // queued or running
}

func newQueue() *queue {
	q := &queue{jobs: map[int][]func(context.Context){}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) push(prio int, job func(context.Context)) {
	q.mu.Lock()
	q.jobs[prio] = append(q.jobs[prio], job)
	q.pending++
	q.mu.Unlock()
	q.cond.Broadcast()
}

// pop returns the next job, or nil when every job is done.
func (q *queue) pop() func(context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.pending == 0 {
			return nil
		}
		best := -1
		for p, js := range q.jobs {
			if len(js) > 0 && (best < 0 || p < best) {
				best = p
			}
		}
		if best >= 0 {
			j := q.jobs[best][0]
			q.jobs[best] = q.jobs[best][1:]
			return j
		}
		q.cond.Wait()
	}
}

func (q *queue) finish() {
	q.mu.Lock()
	q.pending--
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *queue) run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := q.pop()
				if j == nil {
					return
				}
				j(ctx) // jobs end quickly once ctx is done, and clean up
				q.finish()
			}
		}()
	}
	wg.Wait()
}
