// Package tas holds the catalogue's test-and-set (exchange) lock, generated
// by lockgen from lock.toml.
package tas

//go:generate go run github.com/lockgen/lockgen/cmd/lockgen generate lock.toml
