package cache

//go:generate go tool lockgen generate locks.toml
