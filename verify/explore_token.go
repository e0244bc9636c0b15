package verify

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// Tokens: "lg1/<goroutines>x<passages>/<max steps>/<chooser token>", the
// chooser's token preceded by "crash=M,SEED/" when goroutines crash
// ("crashcs=M,SEED/" when only inside the critical section,
// "crashhold=M,SEED/" when inside it on their first passage).

func (e *explorer) token(g, p int, chooser string) string {
	return fmt.Sprintf("lg1/%dx%d/%d/%s", g, p, e.cfg.maxSteps, chooser)
}

func parseExploreToken(tok string) (g, p, maxSteps int, c sched.Chooser, err error) {
	f := strings.SplitN(tok, "/", 4)
	if len(f) != 4 || f[0] != "lg1" {
		return 0, 0, 0, nil, fmt.Errorf("not an Explore token (want lg1/GxP/steps/strategy)")
	}
	gs, ps, ok := strings.Cut(f[1], "x")
	if !ok {
		return 0, 0, 0, nil, fmt.Errorf("bad size %q", f[1])
	}
	if g, err = strconv.Atoi(gs); err != nil || g < 1 || g > sched.MaxGoroutines {
		return 0, 0, 0, nil, fmt.Errorf("bad goroutines %q", gs)
	}
	if p, err = strconv.Atoi(ps); err != nil || p < 1 {
		return 0, 0, 0, nil, fmt.Errorf("bad passages %q", ps)
	}
	if maxSteps, err = strconv.Atoi(f[2]); err != nil || maxSteps < 1 {
		return 0, 0, 0, nil, fmt.Errorf("bad step bound %q", f[2])
	}
	c, err = sched.ParseToken(f[3])
	return g, p, maxSteps, c, err
}

// splitCrash separates a token's crash plan, if any, from the rest.
func splitCrash(tok string) (rest string, m int, seed uint64, where crashWhere, err error) {
	f := strings.SplitN(tok, "/", 5)
	if len(f) < 5 || !strings.HasPrefix(f[3], "crash") {
		return tok, 0, 0, 0, nil
	}
	m, seed, where, err = parseCrashToken(f[3])
	return strings.Join([]string{f[0], f[1], f[2], f[4]}, "/"), m, seed, where, err
}

func (e *explorer) replay(tok string) {
	e.t.Helper()
	rest, m, crashSeed, where, err := splitCrash(tok)
	if err != nil {
		e.t.Fatalf("verify.Explore: replay token %q: %v", tok, err)
	}
	g, p, maxSteps, c, err := parseExploreToken(rest)
	if err != nil {
		e.t.Fatalf("verify.Explore: replay token %q: %v", tok, err)
	}
	if m > 0 {
		e.plan = newCrashPlan(m, crashSeed, where, g, p)
		defer func() { e.plan = nil }()
	}
	if e.s.Procs > 0 && g > e.s.Procs {
		e.t.Fatalf("verify.Explore: replay token %q needs %d processes; %s has %d", tok, g, e.s.Name, e.s.Procs)
	}
	e.cfg.maxSteps = maxSteps
	ph := e.addPhase(ExplorePhase{Strategy: "replay", Goroutines: g, Passages: p, Bound: -1})
	start := time.Now()
	res := e.run(c, g, p)
	e.account(ph, res, start)
	if res.Failure != nil || res.Accesses == 0 {
		e.report(res, "replay", tok)
		return
	}
	e.t.Logf("explore %s: replay of %s: no failure (%d steps)", e.s.Name, tok, res.Steps)
}
