// Package transport documents the contract between lockgen's generated
// distributed locks and the networks they run over; its subpackages are
// the transports: inproc (in-process, the embedded default, with
// injectable delay, reordering and loss for tests) and natstransport (NATS).
//
// A generated distributed lock declares, in its own package and with the
// standard library only,
//
//	type Transport interface {
//		Send(to int, msg []int64) error
//		Receive() <-chan []int64
//	}
//
// and each process of the lock owns one Transport, its endpoint:
//
//   - Send delivers msg to process to (0..n-1), itself included. It must
//     not block for long: the lock calls it with its process's state
//     locked. It may keep msg; the lock never reuses it.
//   - Messages from one process to another arrive in the order they were
//     sent: the lock's algorithms need FIFO channels between each pair of
//     processes (lockgen explain says so where the paper did not). Nothing
//     is assumed between different senders.
//   - Receive returns the one channel the process's messages arrive on. It
//     is closed when the endpoint is closed or loses contact; the lock
//     then fails every operation in progress or to come, with the error
//     from an Err() error method when the endpoint has one.
//   - Delivery is reliable while the channel is open: a transport that
//     cannot deliver a message (a lost connection) closes the channel or
//     returns an error from Send rather than drop it silently.
//
// A transport that keeps the processes' group (natstransport does, and
// inproc's Member for tests) also implements the lock's Group:
//
//	type Group interface {
//		Join(self, n int, algorithm string) error
//		Views() <-chan []int64
//		Leave(clean bool) error
//		NewEpoch() error
//	}
//
// The lock then runs its algorithm in epochs (lockgen's
// docs/distributed.md, "Epoch protocol"):
//
//   - Join, called once by the lock's constructor, returns when the
//     process is a member, or with the error that refuses it (another n
//     or algorithm, a live process with the same id).
//   - Views delivers each newer epoch that has the process as a member:
//     [epoch, lock-delay in nanoseconds, member ids in increasing order].
//     Epochs increase; the lock counts the lock-delay from the view's
//     arrival before its first grant in the epoch.
//   - Messages may then be lost, duplicated or reordered only across a
//     change of epoch (the lock drops what is not of its epoch); an
//     endpoint that loses one within an epoch fails instead.
//   - Receive closes when the process's lease runs out or it is removed
//     from the group, so that its lock stops before anyone else is
//     granted; Err then says why.
//   - Leave(clean) leaves: at once if clean (the process holds nothing),
//     after the lease otherwise. NewEpoch asks for the next epoch with the
//     same members.
package transport
