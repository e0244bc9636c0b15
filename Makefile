# lockgen — the README's commands call these targets.
#
#   make demo      generate a lock from a spec and verify it (the main job)
#   make test      everything CI runs (staticcheck on the generated code included; within 15
#                  minutes on an idle 2-core machine)
#   make test-long what make test leaves out or shortens to fit (CI, on demand)
#   make verify    all verification layers over the whole catalogue (long)
#   make spin-zehavi  SPIN on Zehavi's k-exclusion at n = 3 (about 31 minutes, 16 GB)
#   make spin-zehavi-crash  its crash tolerance at n = 3, one run per victim (hours)
#   make mutation  the verifier's mutation score; rewrites docs/mutation.md (long)
#   make bench     lockgen bench over the catalogue; rewrites docs/performance.md
#   make tune-targets  lockgen tune's targets on go-cache's benchmarks (about 25 minutes, idle machine)
#   make tuning-doc  reruns the tunes docs/tuning.md shows; rewrites their output there
#   make faults    the fault-injection suite over the distributed locks (OS processes, NATS; about 8 minutes); rewrites docs/faults.md
#   make distributed  the simulator over the paper's grid; rewrites the generated part of docs/distributed.md and its plots
#   make generate  regenerate every checked-in generated package

GO      ?= go
PKGS    := ./...
GENERATED := ./generated/... ./examples/... ./bench/...

.PHONY: faults distributed all deps generate fresh vet staticcheck test test-long test-race test-check test-spin test-usermodule demo verify spin-zehavi spin-zehavi-crash mutation bench bench-pgo tune-targets tuning-doc clean

all: test

# deps installs what the tests need beyond Go modules: SPIN (Debian package).
deps:
	@command -v spin >/dev/null 2>&1 || { \
		echo "installing spin (apt-get install -y spin)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq spin; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq spin; fi; }
	@command -v gcc >/dev/null 2>&1 || { echo "gcc is required to compile SPIN's verifiers"; exit 1; }
	$(GO) mod download

# examples/usermodule is a module of its own (./examples/... stops at its
# go.mod): it is regenerated in its directory.
generate:
	$(GO) generate $(GENERATED)
	cd examples/usermodule && $(GO) generate ./...

# fresh fails if regenerating changes anything that is checked in.
fresh: generate
	@git diff --exit-code --stat -- generated examples bench || { \
		echo "generated code is stale: run 'make generate' and commit the result"; exit 1; }
	@test -z "$$(git status --porcelain --untracked-files=all -- generated examples bench)" || { \
		git status --short -- generated examples bench; \
		echo "regeneration created files that are not committed"; exit 1; }

# vet also refuses a Go file gofmt would change (testdata holds inputs,
# some deliberately malformed).
vet:
	@bad=$$(gofmt -l $$(git ls-files '*.go' | grep -v /testdata/)); \
	if [ -n "$$bad" ]; then echo "gofmt -w these files:"; echo "$$bad"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) vet -tags lockgen_check $(PKGS)

# staticcheck runs on what lockgen generates as users run it in CI: the
# generated packages, the benchmarked locks and the examples, tests
# included (examples/usermodule, a module of its own, in its directory).
# It is pinned, since a new release may add checks; go run fetches it
# through the module proxy. Its negative control, gen/testdata/staticcheck,
# holds a double negation and an empty critical section, as lockgen once
# generated them: both must be reported, or staticcheck checked nothing.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(GO) run $(STATICCHECK) $(GENERATED)
	cd $(USERMOD) && $(GO) run $(STATICCHECK) ./...
	@out=$$($(GO) run $(STATICCHECK) ./gen/testdata/staticcheck 2>&1); \
	for c in SA4013 SA2001; do echo "$$out" | grep -q "($$c)" || { \
		echo "staticcheck did not report the planted $$c in gen/testdata/staticcheck:"; echo "$$out"; exit 1; }; done

# The simulator is one goroutine, and so are lab/mutation's mutant and
# control tests, gen's corpus of mutated specs and backend/golang's scan
# of every configuration's waits: they skip themselves under -race and run
# here without it. lab/spin starts no goroutine (its TestNoGoroutines
# holds it to that) and spends its time in pan and in parsing trails,
# which -race only slows: it runs without -race only. lab/faults's short
# run starts its test binary as its children, which -race would slow
# several times: it skips itself under -race and runs here. One go test line
# runs these packages two at a time, so that no core idles while a
# single-threaded one runs (gen's other tests run twice: a few seconds).
# perf/cmd/benchplots draws with gonum in one goroutine (its tests took
# 50 s under -race on a loaded machine): it runs without -race too.
# -timeout 30m: a package's tests may outlast go test's 10 minutes on a
# loaded machine, which is no failure of theirs.
test-race:
	$(GO) test -race -count=1 -timeout 30m $$($(GO) list $(PKGS) | grep -v '/lab/spin$$' | grep -v '/perf/cmd/benchplots$$')
	$(GO) test -count=1 -timeout 30m ./lab/mutation/ ./netsim/ ./netsim/cmd/netsim/ ./gen/ ./lab/spin/ ./perf/cmd/benchplots/ ./lab/faults/
	$(GO) test -count=1 -run TestNoExclusiveWaitOnTheLockQueue ./backend/golang/

# The controlled scheduler needs the instrumented registers: the generated
# packages' check tests, the hand-written locks of verify's tests (on
# verify/checked), the checked primitives' own and perf/report's count of
# the atomic steps of an uncontended passage run only with the tag.
# bench/locks holds the catalogue at 64 processes (70 s on a cold
# cache): make verify runs it, to keep make test within 15 minutes.
test-check:
	$(GO) test -tags lockgen_check -count=1 ./generated/... ./examples/... ./verify/ ./verify/checked/... ./perf/report/

# SPIN at n = 2 over the whole catalogue (about 2 minutes); make verify
# goes to n = 3. Folded models: the same verdicts, and Zehavi's mutex
# finishes starvation freedom within the 30 s (8.3 million states). Of the
# message-passing specs only dCREW's runs here, for lockgen verify's path:
# lab/spin TestNetworkCatalogue checks every one of them at n = 2 (and
# at 3 with LOCKGEN_SPIN_LONG=1); make verify checks them at n = 2 and 3.
# The 30 s limit is wall-clock: on a loaded machine (load 16 to 20 on 2
# cores) dCREW's, Dvir-Taubenfeld 1's and Zehavi's mutex's searches ran
# out of it, so -allow-incomplete keeps such a run from failing make
# test; the summary still names each lock without a verdict, never as
# verified, and a failure still fails.
NET_SPECS := $(foreach d,carvalho-roucairol dijkstra-ring lamport-1978 le-lann naimi-trehel raymond ricart-agrawala ricart-agrawala-token suzuki-kasami,generated/$(d)/lock.toml)
test-spin:
	$(GO) run ./cmd/lockgen verify -layers spin -n 2 -spin-timeout 30s -spin-fold -expect-rejections -allow-incomplete $(filter-out $(NET_SPECS),$(wildcard generated/*/lock.toml))

# examples/usermodule is a module of its own that uses lockgen as the
# README says (a tool directive, go:generate lines running go tool
# lockgen), through a replace directive to this checkout: go mod tidy
# must leave it alone, regenerating must change nothing, and its packages
# vet and pass their tests under -race and with the lockgen_check tag.
USERMOD := examples/usermodule

test-usermodule:
	cd $(USERMOD) && $(GO) mod tidy -diff
	cd $(USERMOD) && $(GO) generate ./...
	@git diff --exit-code --stat -- $(USERMOD) && test -z "$$(git status --porcelain --untracked-files=all -- $(USERMOD))" || { \
		git status --short -- $(USERMOD); echo "$(USERMOD): go generate changed files: regenerate and commit"; exit 1; }
	cd $(USERMOD) && $(GO) vet ./... && $(GO) test -race -count=1 ./... && $(GO) run .
	cd $(USERMOD) && $(GO) vet -tags lockgen_check ./... && $(GO) test -tags lockgen_check -count=1 ./...

test: deps vet fresh staticcheck test-race test-check test-spin test-usermodule

# test-long runs what make test leaves out or shortens to stay within 15
# minutes: lockgen bench -pgo in a fresh module (TestBenchPGO), 240
# generate runs stopped at random points instead of 60, 60 pairs of
# concurrent generate runs instead of 16 (LOCKGEN_LONG=1), and the
# message-passing catalogue under SPIN at n = 3 (LOCKGEN_SPIN_LONG=1).
# CI runs it on demand.
test-long: deps
	LOCKGEN_LONG=1 $(GO) test -count=1 -timeout 60m -run 'TestBenchPGO|TestGenerateKilledAtRandomPoints|TestGenerateConcurrentRuns' ./cmd/lockgen/
	LOCKGEN_SPIN_LONG=1 $(GO) test -count=1 -timeout 120m ./lab/spin/

distributed:
	$(GO) run ./netsim/cmd/netsim -doc docs/distributed.md

# faults runs the fault-injection suite (lab/faults) over every
# distributed lock of the catalogue at n = 3 and 5, each process an OS
# process over the embedded NATS server: kill -9 of holders and waiters,
# restarts with the same id, SIGSTOP past the lease, server restarts and
# an intruder, every access checked by a fenced resource. It exits 1 on
# a violation, an inversion, a failure no fault explains, an intruder's
# message that got through, or a missed recovery target, and writes the
# report to docs/faults.md. make test runs a short version (lab/faults
# TestShortRun, about 30 s).
faults:
	$(GO) run ./lab/faults/cmd/faults -faults 1000 -server-restarts 4 -intruder 10000 -targets -report docs/faults.md

# demo's SPIN layer runs at n = 2 and 3, where every search of the MCS
# lock completes (8 runs, about 355,000 states, under a minute): at n = 4
# its starvation freedom does not finish within the minute, and lockgen
# verify would rightly end incomplete (exit 3) instead of verified.
demo: deps
	$(GO) run ./cmd/lockgen generate -v -o examples/bank/ledgerlock examples/bank/locks.toml
	$(GO) run ./cmd/lockgen verify -n 2,3 examples/bank/locks.toml
	$(GO) run ./examples/bank
	$(GO) run ./examples/replicas

# verify runs every layer over the whole catalogue (the negative controls
# must be rejected) and rewrites docs/verification.md: SPIN at n = 2 and 3,
# 30 s per run (about 16 minutes on 2 cores); add 4 to -n for n = 4 where
# the state space allows (much longer). Some n = 3 searches do not finish
# within 30 s: -allow-incomplete lets the run end 0 while the report and
# the summary name each such lock as incomplete, never as verified. It
# also recomputes the whole of docs/distributed.md (make test recomputes
# it at n = 10 and 20 only). -spin-fold keeps every verdict (make
# test-spin checks the folded models, controls included) in fewer states:
# Bakery's n = 3 mutual exclusion passes with 3,847,260 (60 s on a
# machine at load 15 on 2 cores), where the literal model had stored 4
# million states at its 30 s limit without a verdict. One search decides
# mutual exclusion and deadlock (lab/spin/merge.go), which saves a
# compilation of pan, most of a short run's time on a loaded machine,
# and at n = 3 a search as large as mutual exclusion's. Still without a
# verdict at n = 3 in 2 to 10 minutes per run on that machine (2026-11-29,
# lockgen verify -layers spin -n 3 -spin-fold -spin-quiescence
# -spin-timeout 2m..10m): Anonymous, BlackWhiteBakery, DT1, DT2 and
# ZehaviMutex, Bakery's and Hehner-Shyamasundar's starvation freedom (2
# to 41 million states stored when stopped), and Zehavi's k-exclusion,
# which spin-zehavi (below) checks outside make verify.
verify: deps
	$(GO) run ./cmd/lockgen verify -expect-rejections -allow-incomplete -n 2,3 -spin-timeout 30s -spin-fold -report docs/verification.md generated/*/lock.toml
	$(GO) test -tags lockgen_check -count=1 ./bench/...
	LOCKGEN_DOC_FULL=1 $(GO) test -count=1 -run TestDistributedDocIsFresh ./netsim/cmd/netsim/

# spin-zehavi checks Zehavi's k-exclusion with SPIN at n = 3, k = 2, one
# passage per process, beyond make verify's 30 s budget: mutual exclusion,
# FIFE and starvation freedom (as quiescence, a safety search: see
# backend/promela/quiescence.go) pass: 195, 388 and 441 million states,
# 31 minutes in all, at most 16 GB (2026-11-27). Crash tolerance fits in
# this machine's memory only as one run per process that may crash (see
# spin-zehavi-crash, where all three pass), and deadlock cannot
# fail in this model (every wait is a busy loop, so no process ever
# blocks): both are left out. It stays out of make verify: 31 minutes
# and 16 GB for one lock would double make verify's time and take most of
# the machine's memory, so make verify's n = 3 runs of Zehavi and
# ZehaviSpin end incomplete and this target gives their verdicts.
spin-zehavi: deps
	$(GO) run ./lab/spin/cmd/spincheck -n 3 -mode kexclusion -k 2 -passages 1 -fold -collapse -fixed-hash -hash 28 -mem 21500 -timeout 40m \
		-quiescence -props mutual-exclusion,fife,starvation-freedom zehavi

# spin-zehavi-crash checks Zehavi's crash tolerance at n = 3, k = 2 (one
# crash anywhere) in one run per process that may crash, made apart
# (spincheck -victims; one at a time: make spin-zehavi-crash VICTIMS=1).
# Each run holds the 441 million crash-free states and its victim's share
# of the crash states: the whole search (hash-compact without reduction,
# about 23 bytes per state) ran out of 21.5 GB after 847,480,480 states
# (72 minutes, no violation found). On 2026-11-28, with SPIN_MEM=20500,
# VICTIMS=0 passed (760,934,830 states, 2,857,773,200 transitions,
# 19,519 MB, 59 minutes), VICTIMS=1 passed (751,650,560 states,
# 2,838,358,100 transitions, 19,306 MB, 59 minutes) and VICTIMS=2 passed
# (744,392,690 states, 2,827,618,700 transitions, 19,140 MB, 44 minutes
# on a quieter machine): every crash at n = 3 is covered.
VICTIMS ?= 0 1 2
SPIN_MEM ?= 21500
spin-zehavi-crash: deps
	for v in $(VICTIMS); do \
		$(GO) run ./lab/spin/cmd/spincheck -n 3 -mode kexclusion -k 2 -passages 1 -fold -hash-compact -fixed-hash -hash 28 -mem $(SPIN_MEM) -timeout 3h \
			-quiescence -victims $$v -props crash-tolerance zehavi || exit $$?; \
	done

# mutation runs every mutant of every catalogue algorithm through stress,
# the controlled scheduler and SPIN (about 30 minutes on 2 cores) and rewrites
# docs/mutation.md; it exits 1 on an unclassified survivor.
mutation: deps
	$(GO) run ./lab/mutation/cmd/mutation -o docs/mutation.md

# bench measures the catalogue's locks (bench/locks/locks.toml) next to
# sync.Mutex, a fair channel-queue lock, sync.RWMutex, xsync.RBMutex and
# x/sync/semaphore, evaluates the performance targets, and rewrites
# docs/performance.md and its plots (about 5 minutes on 2 cores). Run it on
# an otherwise idle machine.
bench:
	$(GO) run ./cmd/lockgen bench -targets -report docs/performance.md bench/locks/locks.toml

# bench-pgo measures the same locks built with profile-guided optimization.
bench-pgo:
	$(GO) run ./cmd/lockgen bench -pgo -targets -report docs/performance-pgo.md bench/locks/locks.toml

# tune-targets measures lockgen tune's targets (issue 49) on go-cache's
# benchmarks, in a module outside this repository: the known winner picked
# in 10 runs of 10 each way, a default tune of three benchmarks within its
# budget, and the winner's ratio reproduced by a rerun. It needs an idle
# machine: the load is logged before and after.
tune-targets:
	LOCKGEN_TUNE_TARGETS=1 $(GO) test -count=1 -timeout 90m -v -run TestTuneTargets ./cmd/lockgen/

# tuning-doc reruns the tunes docs/tuning.md shows (about 5 minutes) and
# rewrites their output there, with the time and the machine's load.
tuning-doc:
	LOCKGEN_TUNING_DOC=1 $(GO) test -count=1 -timeout 30m -v -run TestTuningDoc ./cmd/lockgen/

clean:
	rm -rf backend/golang/testdata
