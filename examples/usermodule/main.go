// Command usermodule is lockgen used the way its README says, from a
// module of its own: go get -tool, then go:generate lines running go tool
// lockgen. It counts to a total from several goroutines under a generated
// ticket lock, takes a generated TryLock-able flag lock where it may skip
// work, and runs a generated distributed lock over lockgen's in-process
// transport.
package main

import (
	"fmt"
	"sync"

	"example.com/usermodule/countlock"
	"example.com/usermodule/distlock"
	"example.com/usermodule/plainlock"

	"github.com/lockgen/lockgen/transport/inproc"
)

// count adds 1 perG times in each of g goroutines, under the lock, and
// returns the total and how many goroutines got the flag lock at once.
func count(g, perG int) (total, flagged int) {
	var (
		mu   countlock.Counter // the zero value is ready, like sync.Mutex
		flag plainlock.Flag
		wg   sync.WaitGroup
	)
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perG {
				mu.Lock()
				total++
				mu.Unlock()
			}
			if flag.TryLock() {
				mu.Lock()
				flagged++
				mu.Unlock()
				flag.Unlock()
			}
		}()
	}
	wg.Wait()
	return total, flagged
}

// distributed runs n processes of the distributed lock, each adding 1
// perP times under its write lock, and returns the total and the largest
// fencing token a writer got.
func distributed(n, perP int) (total int, fence int64, err error) {
	nw := inproc.New(n, inproc.Options{})
	defer nw.Close()
	var wg sync.WaitGroup
	for i := range n {
		l, err := distlock.NewShared(i, n, nw.Endpoint(i))
		if err != nil {
			return 0, 0, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perP {
				l.Lock()
				total++
				fence = max(fence, l.Fence())
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	return total, fence, nil
}

func main() {
	total, flagged := count(8, 10000)
	fmt.Printf("total %d (want 80000); %d goroutines took the flag lock\n", total, flagged)
	dtotal, fence, err := distributed(3, 100)
	if err != nil {
		panic(err)
	}
	fmt.Printf("distributed: total %d (want 300), last fencing token %d\n", dtotal, fence)
}
