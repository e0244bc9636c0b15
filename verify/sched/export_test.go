package sched

// SetReductionControl breaks the DFS's reduction as control names (see
// reductionControl) until the returned function restores it.
func SetReductionControl(control string) (restore func()) {
	reductionControl = control
	return func() { reductionControl = "" }
}
