package mutation

// Zehavi's algorithm at k = 1 (zehavi[mutex]): the grant path (line 11b's
// reads of ALLOW, line 12's writes) never fires, so its mutants are
// equivalent there, and only there (equivalent_zehavi.go records what was
// checked of the one of them that is unresolved at k = 2). Notation as in
// equivalent_zehavi.go: i is the waiting process, q the one whose grant it
// reads.

// zehaviNoGrant proves that at k = 1 line 11b never finds a grant. It follows
// the paper's own proof of k-exclusion (Lemma 4, case 4) and uses its
// Observations 1–3 and Lemma 3; it needs k = 1 at one step, named in it,
// and of the doorway's order only that lines 3 and 4 precede line 6 and
// line 3 precedes line 5, so it holds for the mutant that swaps lines 4
// and 5 as well.
const zehaviNoGrant = "At k = 1 no process ever finds a grant: when i's line 11b reads DISCOVER0[q][i] and " +
	"DISCOVER1[q][i] true, its read of ALLOW[q][i] returns false. Take the first read that returns true, by i in its " +
	"passage P. By the paper's Lemma 3, P's line 5 precedes q's last check of 4e for i before those reads (Tc); as in its " +
	"Lemma 4, case 4, q's last write of ALLOW[q][i] before the read (line 12, in q's passage Q) follows Tc, since a later " +
	"4e check comes after a 4c that clears ALLOW. Tc is in Q's line 4 or earlier, so Q's Scan started after P's Label, and " +
	"it put i before q (line 12 writes only for those): i entered Q's precede at line 10. At k = 1, and only there, q " +
	"leaves its while loop only with precede empty. Not by a grant (ours is the first), so q dropped i at line 11a, at a " +
	"time X during P: (11a.i) COMPETE[i][q] false at X contradicts Observation 1; (11a.ii) q read DISCOVER0[i][q] and " +
	"DISCOVER1[i][q] true, then IGNORE[i][q] and ORDERLT[i][q] false. By Observation 2 that IGNORE read follows P's line " +
	"8, so the ORDERLT read returns P's line 7: P's Scan put q before i. By Lemma 3, Q's line 5 precedes i's last 4e check " +
	"for q before X, which is in P's line 4 or earlier. So P's Scan started after Q's Label finished (line 3 precedes line " +
	"5) and Q's Scan after P's Label finished: both read the same " +
	"two timestamps (neither process labels again before the other's Scan) and order i and q alike, yet P's put q first " +
	"and Q's put i first. Hence line 11b.i's body never runs at k = 1 and every read of ALLOW returns false. The " +
	"layers agree as far as they reach: the mutants that index precede out of range in that body (off-by-one-from-1@11b.i " +
	"and off-by-one-to+1@11b.i) panic under stress and Explore and fail SPIN's bound check at k = 2 (zehavi[kexclusion]), " +
	"and no layer reaches the body at k = 1"

// zehaviNoGrantReads: the mutant leaves out reads of line 11b.
const zehaviNoGrantReads = "the same executions, less some reads: the mutant leaves out line 11b's reads (all of them, " +
	"those of one process, or the ALLOW test) which at k = 1 never find a grant, so in the original they change no local " +
	"and lead nowhere. " + zehaviNoGrant

// zehaviNoGrantBody: the mutant changes line 11b.i's body.
const zehaviNoGrantBody = "the same executions: the mutant changes line 11b.i's body, which never runs at k = 1. " +
	zehaviNoGrant

// zehaviNoGrantWrites: the mutant leaves out writes of line 12.
const zehaviNoGrantWrites = "the same executions, less some writes: the mutant leaves out line 12's writes of ALLOW true " +
	"(all of them, or those for one process). ALLOW is read only at 11b.i, and there the original reads false at k = 1, " +
	"as the mutant does; so, prefix by prefix, every step of the mutant is one of the original's. " + zehaviNoGrant

// zehaviRevealFirst is why lines 4 and 5 may be swapped at k = 1.
const zehaviRevealFirst = "still correct at k = 1: the mutant reveals i (line 5) before its discoveries (line 4). The " +
	"paper's proofs use line 4 before line 5 in one place only, Lemma 4's case 4 (a grant: \"i executed line 5 and Scan_i " +
	"in (Tc, I2)\"), and at k = 1 no grant is ever read, in the mutant too (the proof below uses of the doorway's order " +
	"only that lines 3 and 4 precede line 6 and line 3 precedes line 5). Everywhere else they use that line 5 follows the " +
	"Label and precedes the Scan (Lemma 4's case 3, Lemma 6's Claim 2) and Observation 3, which hold for the mutant. Whether " +
	"the mutant is correct at k ≥ 2, where case 4 is needed, is not shown (zehavi[kexclusion]/Acquire/swap@4,5). " +
	zehaviNoGrant

var zehaviMutexEquivalences = map[string]string{
	"Acquire/swap@4,5":                zehaviRevealFirst,
	"Acquire/delete@11b":              zehaviNoGrantReads,
	"Acquire/off-by-one-from+1@11b":   zehaviNoGrantReads,
	"Acquire/off-by-one-to-1@11b":     zehaviNoGrantReads,
	"Acquire/delete@11b#2":            zehaviNoGrantReads,
	"Acquire/delete@11b.i":            zehaviNoGrantReads,
	"Acquire/off-by-one-from-1@11b.i": zehaviNoGrantBody,
	"Acquire/off-by-one-to+1@11b.i":   zehaviNoGrantBody,
	"Acquire/delete@11b.i#3":          zehaviNoGrantBody,
	"Acquire/delete@12":               zehaviNoGrantWrites,
	"Acquire/off-by-one-from+1@12":    zehaviNoGrantWrites,
	"Acquire/off-by-one-to-1@12":      zehaviNoGrantWrites,
	"Acquire/delete@12#2":             zehaviNoGrantWrites,
	"Acquire/delete@12#3":             zehaviNoGrantWrites,
}

func init() {
	for id, why := range zehaviMutexEquivalences {
		Equivalences["zehavi[mutex]/"+id] = why
	}
}
