package inproc

// Planted returns o with bug (one of group.go's plant constants) planted
// in the group of the network made with it: for negative controls only.
func Planted(o Options, bug string) Options {
	o.plant = bug
	return o
}
