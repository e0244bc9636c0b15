module github.com/lockgen/lockgen

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
