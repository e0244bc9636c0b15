package faults

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
)

// The intruder sends every message asked of it: a replay with nothing
// heard is forged instead (a quiet group once got 9,833 of 10,000).
func TestIntruderSendsAllAsked(t *testing.T) {
	s := &scenario{name: "dcrew-3", alg: "dcrew", n: 3}
	forged := func(data []byte) bool { return len(data) == 9+32 && bytes.HasPrefix(data, []byte{2}) }
	heard := []*nats.Msg{{Subject: "lockgen.dcrew-3.1", Data: []byte("heard")}}
	for _, tc := range []struct {
		name  string
		heard []*nats.Msg
	}{{"quiet group", nil}, {"heard traffic", heard}} {
		rng := rand.New(rand.NewPCG(1, 3))
		kinds := map[string]int{}
		for i := range 600 {
			to, data := s.intruderMessage(i, rng, tc.heard)
			if !strings.HasPrefix(to, "lockgen.dcrew-3.") {
				t.Fatalf("%s: message %d to %q", tc.name, i, to)
			}
			switch {
			case bytes.Equal(data, []byte("heard")):
				kinds["replayed"]++
			case forged(data):
				kinds["forged"]++
			default:
				kinds["malformed"]++
			}
		}
		want := map[string]int{"forged": 200, "replayed": 200, "malformed": 200}
		if tc.heard == nil {
			want = map[string]int{"forged": 400, "malformed": 200}
		}
		for k, v := range want {
			if kinds[k] != v {
				t.Errorf("%s: %v, want %v", tc.name, kinds, want)
				break
			}
		}
	}
}
