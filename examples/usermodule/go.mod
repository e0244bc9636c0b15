module example.com/usermodule

go 1.26.0

tool github.com/lockgen/lockgen/cmd/lockgen

require github.com/lockgen/lockgen v0.0.0

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/nats-io/nats.go v1.55.0 // indirect
	github.com/nats-io/nkeys v0.4.16 // indirect
	github.com/nats-io/nuid v1.0.1 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.49.0 // indirect
)

// Outside this repository a user has `go get -tool
// github.com/lockgen/lockgen/cmd/lockgen` instead: the replace makes the
// example use the lockgen of this checkout.
replace github.com/lockgen/lockgen => ../..
