// Package distlock holds the distributed lock generated from locks.toml.
package distlock

//go:generate go tool lockgen generate locks.toml
