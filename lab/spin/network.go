package spin

import (
	"context"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
)

// NetworkProperties are the properties a message-passing model carries
// (promela.Network): the invariant's assertions, invalid end states, and
// the claim that every process finishes its passages.
var NetworkProperties = []Property{MutualExclusion, Deadlock, Starvation}

// NetworkPropertiesFor are NetworkProperties, and FIFO (the FCFS
// assertions) where the algorithm marks where requests join its order.
func NetworkPropertiesFor(a *ir.Algorithm) []Property {
	if len(a.Joins) > 0 {
		return append(append([]Property{}, NetworkProperties...), FIFO)
	}
	return NetworkProperties
}

// CheckNetwork runs SPIN on the network model of a message-passing
// algorithm for one property.
func CheckNetwork(ctx context.Context, a *ir.Algorithm, o promela.NetOptions, prop Property, run Options) (Result, error) {
	o.Liveness = prop.Liveness()
	o.FCFS = prop == FIFO
	model, err := promela.Network(a, o)
	if err != nil {
		return Result{Property: prop}, err
	}
	return Check(ctx, model, prop, run)
}
