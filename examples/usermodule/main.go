// Command usermodule is lockgen used the way its README says, from a
// module of its own: go get -tool, then go:generate lines running go tool
// lockgen. It counts to a total from several goroutines under a generated
// ticket lock, and takes a generated TryLock-able flag lock where it may
// skip work.
package main

import (
	"fmt"
	"sync"

	"example.com/usermodule/countlock"
	"example.com/usermodule/plainlock"
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

func main() {
	total, flagged := count(8, 10000)
	fmt.Printf("total %d (want 80000); %d goroutines took the flag lock\n", total, flagged)
}
