//go:build race

package mutation

// raceEnabled: generating the catalogue's 1,300 mutants is
// single-threaded, and the named controls' checkers run in processes of
// their own; under -race those tests took three minutes of make test for
// nothing the race detector could see. They skip themselves there, and
// make test-race runs them again without -race; TestRunnerOnTAS, whose
// runner is concurrent, stays under the race detector.
const raceEnabled = true
