// Package plainlock holds the lock generated from locks.toml, without its
// tests.
package plainlock

//go:generate go tool lockgen generate locks.toml
