// Package zehavi holds the catalogue's Zehavi k-exclusion locks, generated
// by lockgen from lock.toml.
package zehavi

//go:generate go run github.com/lockgen/lockgen/cmd/lockgen generate lock.toml
