module github.com/lockgen/lockgen

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/dave/jennifer v1.7.1
	golang.org/x/sync v0.24.0
)
