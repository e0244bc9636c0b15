//go:build lockgen_check

package verify

// CheckBuild: see build.go.
const CheckBuild = true
