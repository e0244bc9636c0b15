package perf

import (
	"math/bits"
	"time"
)

// histogram counts latencies in log-linear buckets (as HdrHistogram
// does): exact below 2·2^histBits ns (64), then 2^histBits buckets per
// power of two, so that a quantile read from it is within 1/2^histBits (3%) of
// the sample's value. A latency run records every acquire; keeping
// samples in a slice grew it to megabytes per run, and the collections
// its growth set off (up to 7 in one 100 ms run) stretched the very tails
// the run measures. A histogram is allocated before the run and never
// grows.
type histogram struct {
	counts [histBuckets]uint64
	n      uint64
	min    int64
	max    int64
}

const (
	histBits = 5
	histSub  = 1 << histBits
	// Values up to 2^histTop ns (about 18 minutes) get buckets of their own;
	// longer ones share the last.
	histTop     = 40
	histBuckets = 2*histSub + (histTop-histBits-1)*histSub
)

// bucket is v's bucket (v >= 0).
func bucket(v int64) int {
	if v < 2*histSub {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - histBits - 1 // v >> e is in [histSub, 2*histSub)
	b := (e+1)*histSub + int(v>>e) - histSub
	return min(b, histBuckets-1)
}

// lowest is the least value in bucket b.
func lowest(b int) int64 {
	if b < 2*histSub {
		return int64(b)
	}
	e := b/histSub - 1
	return int64(b%histSub+histSub) << e
}

func (h *histogram) add(v int64) {
	v = max(v, 0)
	if h.n == 0 || v < h.min {
		h.min = v
	}
	h.max = max(h.max, v)
	h.counts[bucket(v)]++
	h.n++
}

// merge adds o's counts to h's.
func (h *histogram) merge(o *histogram) {
	if o.n == 0 {
		return
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
}

func (h *histogram) reset() { *h = histogram{} }

// quantile is the p-quantile (0 <= p <= 1): the least value of the bucket
// that holds the sample of rank p·(n-1), clamped to the exact minimum;
// the last rank is the exact maximum.
func (h *histogram) quantile(p float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(p * float64(h.n-1))
	if rank == h.n-1 {
		return time.Duration(h.max)
	}
	var seen uint64
	for b, c := range h.counts {
		if seen += c; seen > rank {
			return time.Duration(min(max(lowest(b), h.min), h.max))
		}
	}
	return time.Duration(h.max)
}
