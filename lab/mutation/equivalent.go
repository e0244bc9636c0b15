package mutation

import "fmt"

// The survivors of the mutation runs, classified by hand: Equivalences
// for mutants that still satisfy every property their entry claims (no
// correct checker can kill them), CheckedOnly for mutants correct in every
// search the checker can make but not shown correct beyond, Gaps for wrong
// mutants no layer catches.
// Keyed by mutant ID; each reason says why. The report lists an entry that
// is no longer a survivor as stale, and TestEquivalenceRules checks the
// entries whose reason is a machine-checkable rule (LocalCommute).
//
// Reasons come in a few kinds:
//   - the same executions: a local step moved, a redundant write, a
//     register nobody reads in between;
//   - still correct: the mutant changes behaviour the claims do not cover
//     (which permutation the anonymous adversary picks, how long a backoff
//     lasts, how eagerly a try-acquire gives up), with the argument;
//   - exhaustively checked: a two-process algorithm whose whole state
//     space SPIN searched for every claimed property.

// Shared reasons.
var (
	stepZero = func(v string) string {
		return fmt.Sprintf("redundant write: %s is a Step local, and both backends start every operation with its zero value "+
			"(the Go backend declares it inside the operation, the Promela model resets it), so the explicit initialisation "+
			"to that value changes nothing", v)
	}
	exhaustive2 = "still correct: the algorithm is for two processes only, and SPIN searched every reachable state of the mutant " +
		"at n = 2 for every property the entry claims (mutual exclusion, no deadlock, starvation freedom under weak fairness, " +
		"each passage possibly a try) without finding a violation"
	tieBreak = "still correct: the tie between equal tickets is broken by the reverse order on ids (j ≠ i, so the flipped " +
		"comparison is the strict order i > j); any strict total order on (ticket, id) pairs that both processes of a pair " +
		"evaluate alike is all the bakery argument needs, and FCFS concerns distinct tickets only"
	otherIDs = "the same executions: the loop ranges over the other processes only (j ≠ i), where j ≤ i and j < i agree"
	backoff  = "still correct: the statement only shapes the backoff (how long a process that lost the exchange waits before " +
		"trying again); delays are not part of the algorithm's correctness (it is correct with any delays, none included), " +
		"so neither mutual exclusion nor deadlock freedom depends on them"
	releaseReadThenWrite = "still correct: the release's exchange was the paper's write of FREE, made an exchange only so " +
		"that its old value tells misuse; while the releasing process holds the lock no other process changes L (their " +
		"exchanges write BUSY over BUSY), so reading L and then writing FREE leaves the same states and reads the same BUSY"
	tryPrecheck = "still correct: the try-acquire's early test only decides whether to give up before its final step; " +
		"entering is still decided by the same final check as the acquire's (made with the process's flag raised), and " +
		"every path that gives up lowers the flags again, so the try may give up more or less eagerly under contention, " +
		"but never lets two in, leaves nobody blocked, and still succeeds on an idle lock"
	anonAdversary = "still correct: lines A1–A3 are not the algorithm; they only simulate the adversary that hands each " +
		"process its permutation of the anonymous memory (the entry's first deviation), and the algorithm is correct for " +
		"every permutation; the mutated lines still build a permutation, just another one (a sequence of transpositions " +
		"of the identity), possibly the same for every process"
	anonViewReset = "redundant write: myview is a Step local array, all false at the start of every acquire in both " +
		"backends, so clearing it at line 1 (fully, partly, or after the loop that reads it) changes nothing"
	ownNode = func(fields string) string {
		return fmt.Sprintf("the same executions: both writes initialise fields of the process's own node (%s) before the "+
			"FAS at line 4 publishes it; section 3.3 shows the node is reused only two passages later, after its successor "+
			"has entered, so nobody reads either field before line 4 and their order cannot be observed", fields)
	}
	dt2Reinit = "the same executions: q re-initialises the node it took over at line 15 (its predecessor p's old node) " +
		"before line 6 publishes it; the only other process that may still touch that node is p, finishing its exit at " +
		"lines 13–14, and p reads only its next and status, which with distinct ids no longer matter to it (its CAS at " +
		"line 13 on p's id fails once q passed line 9); so the order of these two writes cannot be observed"
	dt2StatusZero = "redundant write: when q takes over its predecessor's node at line 15 its status is already ZERO " +
		"(whichever of the two CASes on it succeeded — q's at line 9 or the predecessor's at line 13 — wrote ZERO), fresh " +
		"nodes start at ZERO, and nobody else writes it before line 6 publishes the node"
	filterBlind = func(who string) string {
		return "still correct for k ≥ 2 (the only k the k-exclusion spec accepts): the level test ignores process " + who +
			" (call it z), the one process the others no longer see. Peterson's counting argument still holds below level n − 1: " +
			"suppose n − ℓ + 1 processes have passed level ℓ and not exited, and let u be the last to write AFTERYOU[ℓ]. " +
			"If u is still waiting at ℓ, n − ℓ + 2 processes are at ℓ or above, more than level ℓ − 1 lets through; " +
			"otherwise u passed with AFTERYOU[ℓ] = u, so by the level test, while all the others (at least two, raised " +
			"to ℓ before u wrote) stood at ℓ or above: u sees at least one of them unless they are z alone, which needs " +
			"ℓ ≥ n − 1. The k-exclusion loop stops at ℓ = n − k ≤ n − 2, so at most k get in. Liveness: the filter's " +
			"starvation-freedom proof only uses that a waiter is released once AFTERYOU[ℓ] changes or once everyone it " +
			"checks is below ℓ, and the mutant checks fewer processes. With k = 1 the top level is n − 1 and the argument " +
			"fails: filter[mutex]'s copy of this mutant lets two in and is killed. SPIN agrees at n = 3 and 4 (k = 2)"
	}
	lamportOrders = "Lamport's argument for mutual exclusion (two fast entries; a fast and a slow one; two slow ones) " +
		"orders, within an attempt, only these steps: the flag is raised (N1) and X last written (1) before Y is read at " +
		"line 2; Y is written (4) before X is read (5); the flag is lowered (R7.1) before the scan (R7.2), which comes " +
		"before Y is read again (R7.3); and a fast entrant keeps its flag up until its exit. Deadlock freedom needs only " +
		"that the process named by Y eventually sees every flag down, as every other process lowers its flag before it " +
		"waits. SPIN searches n = 2, 3 and 4 exhaustively (mutual exclusion, deadlock, deadlock freedom) and finds nothing " +
		"(n = 4: go run ./lab/mutation/cmd/mutation -alg lamport-fast -only 'swap@N1,1$|swap@1,2$|drop-await@R7.4$' " +
		"-layers spin -spin-sizes 4 -spin-mem 16000 -spin-timeout 25m -jobs 1 -controls=false, 68 min; its TryAcquire " +
		"liveness model needs more than 16 GB there)"
	emTryTurn = "still correct: the mutated step only steers turns between a try and the others (the try's check of the " +
		"turn holder k at L2, or its write of k at L3); mutual exclusion is decided by L2's test that nobody else is in-cs, " +
		"made with the try's own control already in-cs, which the mutant keeps, every way out that gives up sets control " +
		"back to idle, and k only says whose turn it is (a stale or idle turn holder blocks nobody: L1 and L2 accept an " +
		"idle k, and each release hands the turn on). What such steps decide is how often a try overtakes waiting " +
		"processes, and the bounded-waiting claim covers Lock calls only: TryLock calls can void it even unmutated " +
		"(TestEisenbergMcGuireTryLockVoidsBound)"
	knuthNoL3 = "still correct: L3 (k := i) is the entry's last step and the exit's first step LX overwrites k, so the " +
		"mutant is the original with each L3 postponed to just before LX. Scheduled back to back there, k := i and then " +
		"k := i − 1 leave k as k := i − 1 alone does, and nobody reads k in between. So every execution of the " +
		"mutant is an execution of the original in which each entrant is slow between L2 and L3, with every read " +
		"returning the same value; the mutant's critical section lies inside that slow stretch. Mutual exclusion: two " +
		"processes in the mutant's critical section are two past L2 in the original, and letting both take L3 puts both " +
		"in its critical section. Deadlock and starvation freedom carry over: a fair execution of the mutant maps to a " +
		"fair one of the original with the same entries. Bounded waiting: the original's entries only move later, from " +
		"the end of L2 to just before LX, so a waiter is overtaken in the original at least as often as in the mutant, " +
		"and Knuth's 2^(n-1) − 1 bounds both. SPIN agrees: exhaustive at n = 2 and 3, and at n = 4 Knuth's bound 7 holds " +
		"for each of the four processes (one run per watched process, about 31 million states each: go run " +
		"./lab/mutation/cmd/mutation -alg knuth -only 'delete@L3$' -layers spin -spin-sizes 4 -spin-props " +
		"bounded-waiting -spin-mem 8000 -spin-timeout 10m -jobs 1 -controls=false: 15 min, 4 GB)"
)

// anonEarlyRestart is why the two off-by-one mutants of the anonymous
// algorithm's line 15 are correct where checked.
const anonEarlyRestart = "correct at every size SPIN searches, not shown beyond: a process that resigned restarts once " +
	"every register but one (the one its wait skips) reads 0, possibly while a competitor still owns that one. Mutual " +
	"exclusion cannot break (entering needs all m registers); deadlock freedom is the question, and line 15 matters " +
	"for it: without its wait (drop-await@15) processes livelock at n = 2 and 3. SPIN finds no livelock with processes " +
	"looping for ever, exhaustively, at n = 2 (m = 3) and n = 3 (m = 5), for the simulated adversary's permutations " +
	"as every SPIN check of this algorithm (n = 3: go run ./lab/mutation/cmd/mutation -alg anonymous -only " +
	"'q(from\\+1|to-1)@15$|drop-await@15$' -layers spin -spin-sizes 3 -spin-props deadlock-freedom -spin-fold " +
	"-spin-collapse -spin-hash 30 -spin-depth 3000000 -spin-mem 20000 -spin-timeout 40m -jobs 1 -controls=false: " +
	"53 min, the original and each mutant about 18 min and under 20 GB; the same run kills drop-await@15 in 7 s). " +
	"At n = 4 (m = 5) no exhaustive search fits here; a bitstate hunt (the same command with -spin-sizes 4 -spin-bitstate " +
	"-spin-hash 33 -spin-mem 4000 -spin-timeout 10m -jobs 2, without -spin-collapse) finds drop-await@15's livelock in " +
	"3 min and nothing for these two in 10 min each, which shows nothing. For every n this much holds: a process t that passes " +
	"round n − 1's test enters. From then on t owns more than m/2 ≥ 2 registers until its release, so every wait that " +
	"starts later sees one of them (the wait skips one register only); the others never wait on t's registers (their " +
	"values, n − 1 or n, are not below a lower round), resign at round n − 1 at the latest and stay out, and t " +
	"collects all m. A livelock would thus keep every process at round n − 1 or below; that this cannot happen is " +
	"shown only at the sizes SPIN searched"

// Equivalences maps mutant IDs to why they are equivalent.
var Equivalences = map[string]string{
	// anonymous
	"anonymous/Acquire/swap@A1,1":              LocalCommute,
	"anonymous/Acquire/swap@1,1":               LocalCommute,
	"anonymous/Acquire/delete@1":               stepZero("round"),
	"anonymous/Acquire/swap@1,1#2":             LocalCommute,
	"anonymous/Acquire/delete@1#2":             stepZero("counter"),
	"anonymous/Acquire/swap@1,2":               anonViewReset,
	"anonymous/Acquire/delete@1#3":             anonViewReset,
	"anonymous/Acquire/off-by-one-from+1@1":    anonViewReset,
	"anonymous/Acquire/off-by-one-to-1@1":      anonViewReset,
	"anonymous/Acquire/delete@1#4":             anonViewReset,
	"anonymous/Acquire/swap@A1,A2":             LocalCommute,
	"anonymous/Acquire/delete@A1#2":            anonAdversary,
	"anonymous/Acquire/swap@A2,A2":             anonAdversary,
	"anonymous/Acquire/off-by-one-from+1@A2":   anonAdversary + " (perm[0] is already 0, so the identity is built all the same)",
	"anonymous/Acquire/swap@A2,A3":             LocalCommute,
	"anonymous/Acquire/delete@A2#2":            anonAdversary,
	"anonymous/Acquire/off-by-one-from+1@A2#2": anonAdversary,
	"anonymous/Acquire/off-by-one-to+1@A2#2":   anonAdversary + " (the extra step swaps perm[m-1] with itself: y = x + seed mod 1 = x)",
	"anonymous/Acquire/off-by-one-to-1@A2#2":   anonAdversary,
	"anonymous/Acquire/swap@A2,A2#2":           anonAdversary,
	"anonymous/Acquire/delete@A2#4":            anonAdversary,
	"anonymous/Acquire/swap@A2,A2#3":           LocalCommute,
	"anonymous/Acquire/delete@A2#5":            anonAdversary + " (y keeps its zero value, so every step swaps perm[x] with perm[0])",
	"anonymous/Acquire/delete@A3": "still correct: the adversary draws the process a new permutation at every passage " +
		"(lines A1–A3 run again); between passages the process owns no register (line 18 clears all m of them, line 1 " +
		"resets its view), so each passage behaves as a passage of a process with that permutation, which the algorithm " +
		"handles for every permutation",
	"anonymous/Acquire/swap@5,11":  LocalCommute,
	"anonymous/Acquire/swap@7,8":   LocalCommute,
	"anonymous/Acquire/swap@13,13": LocalCommute,
	"anonymous/Acquire/swap@13,14": LocalCommute,

	// bakery and its descendants
	"bakery/Acquire/swap@1,2":                           LocalCommute,
	"bakery/Acquire/delete@2":                           stepZero("mine"),
	"bakery/Acquire/flip-lt@6#2":                        tieBreak,
	"bakery/Acquire/off-by-one-cmp-lt@6#2":              otherIDs,
	"black-white-bakery/Acquire/swap@2,3":               LocalCommute,
	"black-white-bakery/Acquire/delete@3":               stepZero("mine"),
	"hehner-shyamasundar/Acquire/swap@1,2":              LocalCommute,
	"hehner-shyamasundar/Acquire/delete@2":              stepZero("mine"),
	"hehner-shyamasundar/Acquire/flip-lt@5#2":           tieBreak,
	"hehner-shyamasundar/Acquire/off-by-one-cmp-lt@5#2": otherIDs,

	// burns
	"burns/Acquire/off-by-one-qto+1@L1": "the same executions: the extra element of the scan is the process's own flag, " +
		"which only it writes and which it set to false at line L just before",
	"burns/Acquire/swap@L,L1": "still correct: on a retry the process lowers its flag just after the scan of line L1 instead " +
		"of just before; mutual exclusion rests on raising the flag (L2) before the scans of L3 and M, which are unchanged, " +
		"and the lowest-numbered competitor still gets through because every higher one still lowers its flag at every " +
		"retry (a scan later); SPIN checks it exhaustively for n = 2 and 3",
	"burns/TryAcquire/swap@L,L1":             "the same executions: a try starts with its flag already false (every exit, successful or not, lowers it), so line L writes false over false wherever it stands",
	"burns/TryAcquire/delete@L":              "the same executions: a try starts with its flag already false (every exit, successful or not, lowers it), so the write of line L is redundant",
	"burns/TryAcquire/delete@L1":             tryPrecheck,
	"burns/TryAcquire/off-by-one-qfrom+1@L1": tryPrecheck,
	"burns/TryAcquire/off-by-one-qto+1@L1":   tryPrecheck,
	"burns/TryAcquire/off-by-one-qto-1@L1":   tryPrecheck,
	"burns/TryAcquire/delete@L1#2":           tryPrecheck,
	"burns/TryAcquire/swap@L3,M": "still correct: the two final scans (lower ids at L3, higher ids at M) are both made with " +
		"the flag raised and both must pass; their order only changes which of two conflicting processes gives up, and " +
		"both give-up paths lower the flag",

	// queue locks
	"clh/Release/swap@6,6":                  LocalCommute,
	"clh/Release/delete@6#2":                FreeDropped,
	"mcs/Acquire/swap@1,2":                  LocalCommute,
	"mcs/Release/delete@_1":                 FreeDropped,
	"mcs/TryAcquire/swap@_3.0,_3.1":         FreeDropped + " (after the swap the free follows the give-up and is never reached)",
	"mcs/TryAcquire/delete@_3.0":            FreeDropped,
	"dvir-taubenfeld-1/Acquire/swap@2,3":    ownNode("next and status"),
	"dvir-taubenfeld-1/TryAcquire/swap@2,3": ownNode("next and status"),
	"dvir-taubenfeld-1/Release/swap@11,16":  LocalCommute,
	"dvir-taubenfeld-2/Acquire/swap@_0,0":   LocalCommute,
	"dvir-taubenfeld-2/Acquire/swap@1,2":    dt2Reinit,
	"dvir-taubenfeld-2/Acquire/swap@2,3":    dt2Reinit,
	"dvir-taubenfeld-2/Acquire/swap@3,4":    dt2Reinit,
	"dvir-taubenfeld-2/Acquire/swap@4,5": "the same executions: q's locked is written by a predecessor (line 14) only if that " +
		"predecessor's CAS at line 13 succeeds, which with distinct ids happens before q passes line 9 of the passage in which " +
		"it was the successor; so in q's next passage nobody touches q's locked or its node's status before line 6 publishes " +
		"the node, and the order of the two writes cannot be observed",
	"dvir-taubenfeld-2/Acquire/delete@4":   dt2StatusZero,
	"dvir-taubenfeld-2/Acquire/delete@4#2": dt2StatusZero + " (line 4's test finds it so, and never writes)",
	"dvir-taubenfeld-2/Acquire/flip-ne@4":  dt2StatusZero + " (the flipped test writes ZERO over ZERO)",
	"dvir-taubenfeld-2/Acquire/swap@5,6": "the same executions: locked is still raised before line 7 links the node behind " +
		"the predecessor, and the predecessor can only signal q through that link (line 14), so no signal can be lost",
	"dvir-taubenfeld-2/Acquire/swap@7,8": "the same executions: pred.pid does not change between the FAS of line 6 and q " +
		"taking the node over at line 15 (its owner wrote it before its own FAS, and only q rewrites it, in its next " +
		"passage), so reading it before or after linking at line 7 gives the same value",

	// two-process algorithms (whole state space searched)
	"dekker/Acquire/swap@A1,A1": "redundant write: entered is a Step local, false at the start of every acquire in both " +
		"backends, so the loop runs as before, and after the loop the moved write is dead",
	"dekker/Acquire/delete@A1":        stepZero("entered"),
	"dekker/Acquire/swap@L1,L1#2":     exhaustive2,
	"dekker/Release/swap@E1,E2":       exhaustive2,
	"doran-thomas/Release/swap@D8,D9": exhaustive2,

	// dijkstra
	"dijkstra/Acquire/swap@4,5": "still correct: mutual exclusion rests on stage 2 (NOTN[i] lowered at line 6, then the scan " +
		"of line 7), which is unchanged; the swap only delays the raise of NOTN[i] (withdrawing from stage 2) by one step, " +
		"the test of line 5; SPIN checks it exhaustively for n = 2 and 3",
	"dijkstra/Release/swap@10,10": "still correct: both writes end the holder's claims after it left the critical section; " +
		"in either order the others' tests of line 5 and line 7 see one claim gone, then both",
	"dijkstra/TryAcquire/swap@1,3":     tryPrecheck,
	"dijkstra/TryAcquire/delete@1":     tryPrecheck + " (without FLAG[i] raised others may take NEXT from it; stage 2, which decides, is unchanged)",
	"dijkstra/TryAcquire/swap@4,5":     tryPrecheck,
	"dijkstra/TryAcquire/delete@4":     "redundant write: NOTN[i] is true whenever a try begins (initially, and after every release or give-up), so the write of line 4 changes nothing",
	"dijkstra/TryAcquire/delete@5#2":   tryPrecheck + " (NEXT only decides who may go on to stage 2; stage 2 decides)",
	"dijkstra/TryAcquire/swap@10,10":   "the same executions: both give-up writes happen before the try returns; their order changes nothing another process's tests depend on (line 5 reads FLAG of NEXT, which is not i on this path, and line 7 reads NOTN)",
	"dijkstra/TryAcquire/swap@10,10#2": "the same executions: both give-up writes happen before the try returns; in either order the others see one claim gone, then both",
	"dijkstra/TryAcquire/delete@10": "still correct: on this path NEXT ≠ i and only i can make NEXT = i, which it does in a later " +
		"passage with FLAG[i] raised anyway; nobody reads FLAG[i] unless NEXT = i, so leaving it raised is never observed",
	"dijkstra/TryAcquire/swap@10,5": "redundant write: on this path NOTN[i] was set to true at line 4 of the same try, so the " +
		"reset at line 10, reached or not, rewrites the value it already holds",
	"dijkstra/TryAcquire/delete@10#2": "redundant write: on this path NOTN[i] was set to true at line 4 of the same try",

	// de Bruijn, Eisenberg-McGuire, Knuth: try-acquire pre-checks
	"debruijn/TryAcquire/swap@L0,L1":                     tryPrecheck,
	"debruijn/TryAcquire/delete@L0":                      tryPrecheck,
	"debruijn/TryAcquire/swap@L1,L1":                     tryPrecheck + " (the scan uses kk = 0, its zero value)",
	"debruijn/TryAcquire/delete@L1":                      tryPrecheck + " (the scan uses kk = 0, its zero value)",
	"debruijn/TryAcquire/swap@L1,L2":                     tryPrecheck,
	"eisenberg-mcguire/TryAcquire/swap@L0,L1":            tryPrecheck,
	"eisenberg-mcguire/TryAcquire/delete@L0":             tryPrecheck,
	"eisenberg-mcguire/TryAcquire/swap@L1,L1":            tryPrecheck + " (the scan uses kk = 0, its zero value)",
	"eisenberg-mcguire/TryAcquire/delete@L1":             tryPrecheck + " (the scan uses kk = 0, its zero value)",
	"eisenberg-mcguire/TryAcquire/swap@L1,L2":            tryPrecheck,
	"eisenberg-mcguire/TryAcquire/delete@L1#2":           tryPrecheck,
	"eisenberg-mcguire/TryAcquire/off-by-one-qfrom+1@L1": tryPrecheck,
	"eisenberg-mcguire/TryAcquire/off-by-one-qto-1@L1":   tryPrecheck,
	"eisenberg-mcguire/TryAcquire/delete@L1#3":           tryPrecheck,
	"eisenberg-mcguire/TryAcquire/swap@L2,L2#2":          emTryTurn + " (here the turn check is skipped: it runs before entered is set)",
	"eisenberg-mcguire/TryAcquire/swap@L2,L2#3":          emTryTurn + " (here the turn check's verdict is ignored: the give-up test runs before it)",
	"eisenberg-mcguire/TryAcquire/delete@L2#3":           emTryTurn + " (here the turn check is gone)",
	"eisenberg-mcguire/TryAcquire/delete@L2#6":           emTryTurn + " (here the turn check is gone)",
	"eisenberg-mcguire/TryAcquire/swap@L2,L2#4":          emTryTurn + " (here the turn check uses k as read at L1)",
	"eisenberg-mcguire/TryAcquire/delete@L2#5":           emTryTurn + " (here the turn check uses k as read at L1)",
	"eisenberg-mcguire/TryAcquire/swap@L2,L3":            emTryTurn + " (here a try that then gives up may already have written k := i)",
	"eisenberg-mcguire/TryAcquire/delete@L3":             emTryTurn + " (here a try that enters leaves k as it was)",
	"knuth/TryAcquire/swap@L0,L1":                        tryPrecheck,
	"knuth/TryAcquire/delete@L0":                         tryPrecheck,
	"knuth/TryAcquire/swap@L1,L2":                        tryPrecheck,
	"eisenberg-mcguire/Release/swap@L4,L4": "still correct: the scan now starts from next = 0 and its result is overwritten, " +
		"so the turn simply advances to k + 1 even when that process is idle; an idle turn holder blocks nobody (the scans " +
		"of L1 and L2 accept an idle k), each release still moves the turn one step on, so a waiting process gets the turn " +
		"within n − 1 releases, as the paper's bound requires",
	"eisenberg-mcguire/Release/swap@L4,L5": "still correct: k is set to (k + 1) mod n before the scan whose result is then " +
		"unused, so the turn advances by one at every release; as for the scan starting from 0, an idle turn holder blocks " +
		"nobody and a waiting process gets the turn within n − 1 releases",
	"eisenberg-mcguire/Release/delete@L4#2": "still correct: without the scan the turn advances to (k + 1) mod n at every " +
		"release; an idle turn holder blocks nobody and a waiting process gets the turn within n − 1 releases",

	// filter
	// kessels
	"kessels/Acquire/off-by-one-cmp-gt@K1": "the same executions: the extra round is at the tree's non-node 0 (slots Q[0], Q[1], " +
		"R[0], R[1], which no real node uses): every process arrives there on side 1, Q[0] is never set, so the await holds at " +
		"once; the release starts at node 1 and never looks at path[0]",
	"kessels/Acquire/swap@K2,K3": LocalCommute,

	// lamport-fast
	"lamport-fast/Acquire/delete@1": "still correct: X is never written, so it keeps its initial value 0 and only process 0 " +
		"ever takes the fast path (X = i at line 5), every other process the slow one; process 0 enters fast only after " +
		"raising its flag and finding Y = ⊥, so a slow process, which enters only after seeing every flag down and Y still " +
		"its own, cannot be inside with it, and two slow processes exclude each other through Y as in the original",
	"lamport-fast/TryAcquire/delete@1": "still correct: X is never written by a try, so a try that reaches line 5 takes the " +
		"fast path only if X (written by acquires) happens to be i, and the slow path otherwise; both paths are the original's",

	// mcs-rw, writer preference
	"mcs-rw[writer]/Release/swap@W4,W5": "still correct: the writer flag is still cleared (W4) before anyone it lets through " +
		"can enter: a writer released early by W5 waits at W3 for the flag, a reader at R3",

	// morris
	"morris/Acquire/swap@5,6": "still correct: NM is only touched under A (line 5) or in the M phase (lines 14, 15), which " +
		"cannot be active while this process holds A (the M phase ends by releasing A); moved after line 6 the increment " +
		"still happens while it holds A, before it can open M at line 10",
	"morris/Acquire/swap@9,10": "still correct: the last process through room 1 opens both doors, M (room 3) and B (room 1); " +
		"arrivals let in by B stop at A, which stays closed until the M phase ends, so the order in which the two doors open " +
		"changes no ordering between the rooms",
	"morris/Acquire/swap@11,12": "still correct: opening A (room 2) before B (room 1): a process let through A then waits for " +
		"B at line 6, which is released one step later; no room's invariant depends on the order",

	// replace-add
	"replace-add[mutex]/Acquire/swap@_0,1":      "redundant write: ok is a Step local, false at the start of every acquire in both backends, so the loop runs as before, and after it the moved write is dead",
	"replace-add[mutex]/Acquire/delete@_0":      stepZero("ok"),
	"replace-add[kexclusion]/Acquire/swap@_0,1": "redundant write: ok is a Step local, false at the start of every acquire in both backends, so the loop runs as before, and after it the moved write is dead",
	"replace-add[kexclusion]/Acquire/delete@_0": stepZero("ok"),

	// ttas
	"ttas/Acquire/swap@_0,1": backoff + " (backoff starts and stays at 0: no delay at all)",
	"ttas/Acquire/delete@_0": backoff + " (backoff starts and stays at 0: no delay at all)",
	"ttas/Acquire/drop-await@1": "still correct: the await is the first test of test-and-test-and-set, a read-only filter " +
		"before the exchange; without it the lock is test-and-set with backoff, the exchange alone deciding",
	"ttas/Acquire/swap@2,3":                           backoff + " (the delay follows the previous iteration's exchange)",
	"ttas/Acquire/delete@3":                           backoff,
	"ttas/Acquire/flip-ne@3":                          backoff + " (the winner delays once before leaving the loop, holding the lock)",
	"ttas/Acquire/swap@4,5":                           backoff,
	"ttas/Acquire/delete@4":                           backoff,
	"ttas/Acquire/delete@5":                           backoff,
	"ttas/Acquire/flip-lt@5":                          backoff,
	"ttas/Acquire/delete@5#2":                         backoff,
	"ttas/Acquire/delete@5#3":                         backoff,
	"tas/Release/fas-write@2":                         releaseReadThenWrite,
	"ttas/Release/fas-write@6":                        releaseReadThenWrite,
	"ttas/TryAcquire/delete@1":                        "still correct: the test is a read-only filter before the exchange, which alone decides (as in test-and-set's try)",
	"ttas/TryAcquire/delete@1#2":                      "still correct: without the give-up the try goes on to the exchange, which alone decides (as in test-and-set's try)",
	"filter[kexclusion]/Acquire/off-by-one-qfrom+1@4": filterBlind("0"),
	"lamport-fast/Acquire/swap@N1,1": "still correct: X := i now comes before the flag is raised, and both still come " +
		"before line 2, the only step the argument orders them against. " + lamportOrders,
	"lamport-fast/TryAcquire/swap@N1,1": "still correct: as for the acquire's swap of N1 and line 1. " + lamportOrders,
	"lamport-fast/Acquire/swap@1,2": "still correct: X := i now ends an attempt that backs off (after R3 or R7.4), so a " +
		"process's last write of X still comes before its next read of Y, the order the two-fast-entries case needs; an " +
		"attempt that finds X ≠ i (a first one, say) takes the slow path, which the argument covers. " + lamportOrders,
	"lamport-fast/Acquire/drop-await@R7.4": "still correct: a loser at R7.3 starts its next attempt at once instead of " +
		"after Y = ⊥. The argument never uses R7.4 (a newcomer may start an attempt at any time), and the next attempt, " +
		"finding Y ≠ ⊥ at line 2, lowers its flag at R3 and waits there instead, its flag up only briefly, as a " +
		"newcomer's. " + lamportOrders,
	"filter[kexclusion]/Acquire/off-by-one-qto-1@4": filterBlind("n − 1"),
	"knuth/Acquire/delete@L3":                       knuthNoL3,
	"knuth/TryAcquire/delete@L3":                    knuthNoL3,
}

// CheckedOnly maps mutant IDs to why they are correct wherever they can be
// checked (exhaustive searches at the sizes the layers run, or where none
// finishes, the longest hunts recorded in the reason) although no argument
// shows them correct for every size: no layer kills them, yet the scores
// count them as not equivalent.
var CheckedOnly = map[string]string{
	"anonymous/Acquire/off-by-one-qfrom+1@15": anonEarlyRestart,
	"anonymous/Acquire/off-by-one-qto-1@15":   anonEarlyRestart,
}

// Gaps maps mutant IDs to why no layer catches them although they are
// wrong, and what would catch them.
var Gaps = map[string]string{}
