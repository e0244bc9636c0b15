// Package countlock holds the lock generated from locks.toml.
package countlock

//go:generate go tool lockgen generate locks.toml
