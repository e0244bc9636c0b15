package layers

import (
	"testing"

	"github.com/lockgen/lockgen/templates/distributed"
)

// A message-passing lock's SPIN models have the channels its paper
// assumes unless -channels names others, and the row says which and why.
func TestChannelsOf(t *testing.T) {
	fifo, noOrder := &distributed.Entry{AssumesFIFO: true}, &distributed.Entry{}
	for _, c := range []struct {
		channels string
		e        *distributed.Entry
		reorders bool
		says     string
	}{
		{"", fifo, false, "FIFO channels (the paper's)"},
		{"", noOrder, true, "channels that reorder (the paper's)"},
		{ChannelsFIFO, noOrder, false, "FIFO channels (-channels fifo)"},
		{ChannelsReorder, fifo, true, "channels that reorder (-channels reorder)"},
	} {
		o := Options{Channels: c.channels}
		if got := o.reorders(c.e); got != c.reorders {
			t.Errorf("-channels %q, AssumesFIFO %v: reorders = %v, want %v", c.channels, c.e.AssumesFIFO, got, c.reorders)
		}
		if got := o.ChannelsOf(c.e); got != c.says {
			t.Errorf("-channels %q, AssumesFIFO %v: %q, want %q", c.channels, c.e.AssumesFIFO, got, c.says)
		}
	}
}
