// Package kessels holds the catalogue's Kessels tournament locks, generated
// by lockgen from lock.toml.
package kessels

//go:generate go run github.com/lockgen/lockgen/cmd/lockgen generate lock.toml
