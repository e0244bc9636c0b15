// Package locks holds the generated locks the benchmarks measure.
package locks

//go:generate go run github.com/lockgen/lockgen/cmd/lockgen generate locks.toml
