package perf

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Every value falls in a bucket whose least value is at most it and
// within 1/2^histBits of it, and buckets do not shrink as values grow.
func TestHistogramBuckets(t *testing.T) {
	prev := -1
	for _, v := range []int64{0, 1, 63, 64, 65, 127, 128, 1000, 1 << 20, 3<<30 + 7, 1<<40 - 1} {
		b := bucket(v)
		lo := lowest(b)
		if lo > v || float64(v-lo) > float64(v)/histSub {
			t.Errorf("value %d: bucket %d starts at %d", v, b, lo)
		}
		if b < prev {
			t.Errorf("value %d: bucket %d before %d", v, b, prev)
		}
		prev = b
	}
	if b := bucket(1 << 50); b != histBuckets-1 {
		t.Errorf("2^50 ns in bucket %d, want the last, %d", b, histBuckets-1)
	}
}

// Quantiles read from the histogram agree with the sorted samples within
// the buckets' precision, and the maximum is exact.
func TestHistogramQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h, a, b histogram
	var xs []int64
	for i := range 100_000 {
		v := int64(r.ExpFloat64() * 2000)
		if i%1000 == 0 {
			v *= 1000 // a tail
		}
		xs = append(xs, v)
		h.add(v)
		if i%2 == 0 {
			a.add(v)
		} else {
			b.add(v)
		}
	}
	a.merge(&b)
	slices.Sort(xs)
	for _, p := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		want := xs[int(p*float64(len(xs)-1))]
		for name, hist := range map[string]*histogram{"one": &h, "merged": &a} {
			got := int64(hist.quantile(p))
			if got > want || float64(want-got) > float64(want)/histSub+1 {
				t.Errorf("%s: quantile %v = %d, samples say %d", name, p, got, want)
			}
		}
	}
	if h.quantile(1) != time.Duration(xs[len(xs)-1]) || a.max != h.max || a.n != h.n {
		t.Errorf("max %v (merged %v), want %d", h.quantile(1), a.max, xs[len(xs)-1])
	}
}
