module example.com/usermodule

go 1.26.0

tool github.com/lockgen/lockgen/cmd/lockgen

require github.com/lockgen/lockgen v0.0.0

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/puzpuzpuz/xsync/v4 v4.5.0 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	gonum.org/v1/plot v0.17.0 // indirect
)

// Outside this repository a user has `go get -tool
// github.com/lockgen/lockgen/cmd/lockgen` instead: the replace makes the
// example use the lockgen of this checkout.
replace github.com/lockgen/lockgen => ../..
