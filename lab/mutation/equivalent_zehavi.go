package mutation

// Zehavi's k-exclusion: the survivors shown equivalent, for both of its
// variants (k-exclusion and mutex), the wrong ones the k-exclusion
// variant's layers miss, and the one correct where checked at k = 2;
// equivalent_zehavi_mutex.go holds those equivalent at k = 1 only.
//
// Notation: DISCOVER0[i][q] is the cell DISCOVER0[(i * n) + q], through
// which i records that it discovered q (q revealed itself before i's line
// 4); likewise DISCOVER1, ALLOW, IGNORE, ORDERLT and COMPETE.

// zehaviPrecede is why clearing precede at line 9 is redundant.
const zehaviPrecede = "redundant write: precede is a Step local array, all false at the start of every acquire in both " +
	"backends, and line 9 runs before anything sets it, so clearing it (fully, partly or not at all) changes nothing"

// zehaviAllowed is why clearing precede at line 11b.i is a dead store.
const zehaviAllowed = "dead store: line 11b.i sets cnt := 0 as well, and after it nothing reads precede again in the " +
	"acquire (the rest of 11b's loop reads DISCOVER and ALLOW and writes precede and cnt only; the while loop then " +
	"ends, since 0 < k; line 12 reads order), and the next acquire starts with precede all false, so clearing precede " +
	"there (fully, partly or not at all) changes nothing"

// zehaviWhileBody is why swapping the two passes of the while loop (11a, then
// 11b) changes no visible step.
const zehaviWhileBody = "the same visible executions: both passes only read shared registers and write precede and cnt, " +
	"which nothing reads after the loop (line 12 reads order). The mutant's body is 11b then 11a, so its loop is the original's " +
	"with one more 11b before the first 11a and none after the last: a pass of 11b that finds no grant changes nothing and can be " +
	"left out, and a pass that finds one (DISCOVER0, DISCOVER1 and ALLOW[q][i] read true) empties precede, after which 11a reads " +
	"nothing (each test begins with precede[q]) and the loop ends; the original ends there too with 11a's reads placed just before " +
	"those of 11b, which then read the same values. So the original can follow any schedule of the mutant, the other processes' " +
	"steps unchanged, and every execution of the mutant, with any violation in it, is one of the original's; on a " +
	"memory that does not change, both orders end the loop exactly when 11a brings cnt below k or 11b finds a grant, so the FIFE " +
	"check's notion of an enabled process is the same too"

// zehaviSkip is the fact the release's equivalences rest on: while process
// i is in its exit code, another process q's choice at line 4 for i
// (recompute its discovery of i, or skip) leaves nothing another process
// can see once i's line 14 is done.
const zehaviSkip = "Only q and i write or read DISCOVER0[q][i] and DISCOVER1[q][i] (q at lines 4 and 4f, i at 11 and 14), " +
	"and every condition reads DISCOVER0 first and DISCOVER1 only after DISCOVER0 read true. While i is in its exit code " +
	"(REVEAL[i] false from line 13 until its next line 5), q's line 4 for i either recomputes, writing false to both cells and " +
	"to ALLOW[q][i] (4d and 4e find REVEAL[i] false), or skips; once i's line 14 has cleared the cells, the two differ only in " +
	"ALLOW[q][i], which i reads only after reading both cells true, and they become true again only through a recomputation, " +
	"whose 4c clears ALLOW first. So the branch q takes in i's exit code is invisible"

// zehaviRelease14 is why the two writes of line 14 may be reordered or the
// second dropped.
const zehaviRelease14 = "the same visible executions: the mutant's line 14 leaves DISCOVER1[q][i] true, or sets it false " +
	"before DISCOVER0, where the original sets both false in order. A difference reaches q only when q reads DISCOVER0 true " +
	"before i's write to it and DISCOVER1 after (one condition of line 4 or 4f): q's read of DISCOVER1 moved back to just after " +
	"its read of DISCOVER0, over other processes' steps none of which write DISCOVER1[q][i], gives an execution of the original " +
	"in which q takes the same branch, or one that differs only while i is in its exit code. " + zehaviSkip +
	". After i's line 14, DISCOVER0[q][i] is false and a stale DISCOVER1[q][i] is never read: DISCOVER0 becomes true again " +
	"only at a line 4d that follows 4b, which clears DISCOVER1"

// zehaviRelease1415 is why clearing COMPETE (line 15) before the discovery
// cells (line 14) changes nothing visible.
const zehaviRelease1415 = "the same visible executions: the mutant writes i's line 15 (COMPETE[i][q] false) before its line " +
	"14 (DISCOVER0 and DISCOVER1 [q][i] false) instead of after. Moving line 14's writes back before line 15 changes what only " +
	"q can read (those cells belong to the pair of q and i), and q reads them only at line 4 or 4f, where reading them true " +
	"rather than false changes only whether q recomputes its discovery of i, during i's exit code. " + zehaviSkip +
	". A process that reads COMPETE[i][q] false at line 11a.i and drops i sees what it sees after the original's line 15"

// zehaviLabelSkipsZero is why line 3's scan may leave out TS[0]: the
// mutant's Label is another timestamp system with the properties the
// paper's proofs use.
const zehaviLabelSkipsZero = "still correct: line 3's scan starts at process 1, so every process leaves TS[0] out of its " +
	"maximum. That is another Label with the three properties of a concurrent timestamp system the paper's proofs use " +
	"(section 2: consistency, Properties 1 and 2), on the order of (TS, id) pairs that lines 7, 10 and 12 compare. TS[q] for " +
	"q ≥ 1 still only grows (q's own value is in its maximum), so a maximum over q ≥ 1 read later is at least one read " +
	"earlier, and TS[0] still never decreases. Property 1, q's Label finishing before p's starts: p's maximum includes " +
	"TS[q] when q ≥ 1, and when q = 0 it is at least the maximum 0 read, so TS[p] ≥ TS[0] and a tie puts 0 first, by id; " +
	"either way q < p in every later Scan. (Leaving out any other process breaks this: a tie would put the lower id first.) " +
	"Property 2: take p in P with the largest last (TS, id); a Label of q in P starting after p's finished would order q " +
	"after p, and every other label p's Scan reads is at most that process's last one, so below p's. Consistency: outside " +
	"Labels no TS changes, so Scans agree. The proofs use nothing else of the timestamps, so the mutant is Algorithm 1 on " +
	"another valid timestamp system"

// zehaviDropOrder is why line 11a may make its two tests of q in the other
// order.
const zehaviDropOrder = "still correct: the mutant makes line 11a's two tests of q in the other order, the discovery " +
	"test (11a.ii) before COMPETE (11a.i). Each only reads shared registers and drops q from precede when it holds, neither " +
	"runs once q is dropped, and 11a.ii still reads DISCOVER0 before DISCOVER1, the order Lemma 3 is about. The paper's " +
	"proofs use a drop only through the read that justified it (Lemma 4: each process a process entered past was dropped " +
	"because it read COMPETE false, or both discovery cells true with IGNORE and ORDERLT false, or a grant at 11b), never " +
	"which test came first; and its progress arguments (Lemmas 5 and 6) rest on a condition that holds from some time on, " +
	"which either order reads within one more pass of the loop, O(n) steps. So Lemmas 3 to 6 hold for the mutant as written"

// zehaviDiscovery is the fact the line-4 equivalences rest on: when i
// starts recomputing its discovery of q (the body of line 4), the first
// cell is false, and it stays false until i's own 4d.
const zehaviDiscovery = "Only i writes true to DISCOVER0[i][q] and DISCOVER1[i][q] (lines 4d and 4e); q writes them false " +
	"at its line 14, DISCOVER0 first, after its line 13 set REVEAL[q] false, which stays false until q's next line 5, so i's 4d " +
	"and 4e write nothing while q is between its 14a and 14b. i's body of line 4 (4a to 4f.ii) ends with both cells false " +
	"unless 4f read both true. So whenever i is not inside that body, DISCOVER0[i][q] true implies DISCOVER1[i][q] true: q's " +
	"14b, the only other write of false to DISCOVER1, follows its 14a with no true written to DISCOVER0 in between. i enters the " +
	"body when its test reads DISCOVER0 false, or reads it true and then DISCOVER1 false; either way DISCOVER0 is false then, " +
	"and it stays false until i's 4d, since only i writes true. This uses neither 4a nor 4b nor the order of 4a to 4c, so it " +
	"holds for the mutant as well"

// zehaviDiscoveryRead is the other half: nobody reads the pair's
// DISCOVER1 or ALLOW[i][q] inside i's body of line 4 before its 4e.
const zehaviDiscoveryRead = "ALLOW[i][q] is read only by q at 11b, and DISCOVER1[i][q] only after DISCOVER0[i][q] read true " +
	"(by q at 11a.ii and 11b, by i at line 4 and 4f). Inside i's body of line 4, DISCOVER0 is false up to 4d and DISCOVER1 " +
	"from 4b to 4e (only i writes true, and 4b precedes 4d in these mutants too), so a read of the pair that finds both true " +
	"and goes on to ALLOW reads DISCOVER1 after 4e, " +
	"or else began with a read of DISCOVER0 true before i's test: then both cells were true, and i's test could only find " +
	"them not both true after q's own line 14, which q cannot reach from 11b in between"

// zehaviStale4f is why line 4f.ii's write of DISCOVER1 may be left out or
// made first: a DISCOVER1 left true after 4f.i is never read.
const zehaviStale4f = "Where 4f.ii would clear DISCOVER1[i][q], the mutant may leave it true while DISCOVER0 is false. " +
	"Every read of DISCOVER1[i][q] follows a read of DISCOVER0[i][q] true in the same condition (q at 11a.ii and 11b, i at " +
	"line 4 and 4f). After 4f.i, DISCOVER0 stays false until i's next 4d (only i writes true), and 4b, before 4d, clears " +
	"DISCOVER1, so only a condition whose read of DISCOVER0 came before 4f.i can read a stale DISCOVER1. That read found " +
	"DISCOVER0 true, set by i's 4d; i's 4f then read it true as well (in between only q's line 14, which q cannot reach from " +
	"11, and i's own 4f.i write false), so i entered 4f's body because it read DISCOVER1 false, and DISCOVER1 stayed false " +
	"(only i writes true, at 4e, already past). Such a condition reads DISCOVER1 false in both, and the cells agree again " +
	"at i's next 4b or q's next 14b. If i crashes in between, DISCOVER0 stays false and DISCOVER1 is never read"

// zehaviUnnormalised is why line 4f's test, or its clearing of DISCOVER0,
// may be left out: the uneven pairs it would clear are never read.
const zehaviUnnormalised = "the same visible executions: the mutant may leave i's body of line 4 with DISCOVER0[i][q] true " +
	"and DISCOVER1[i][q] false, where the original's 4f clears both (and, without 4f's test, with DISCOVER0 false and " +
	"DISCOVER1 true). The first arises only when 4d read REVEAL[q] true and 4e read it false, so q passed its line 13 in " +
	"between; DISCOVER0 then stays true until q's 14a (for ever if q crashed before it), and q's next line 5 follows its " +
	"14a. Meanwhile q, in its exit code, reads neither cell, and i reads them only at its next line-4 test, which enters the " +
	"body as the original's does (reading DISCOVER1 false where the original reads DISCOVER0 false); 4a and 4b then clear " +
	"both. The second arises only when 4d read REVEAL[q] false and 4e read it true; DISCOVER0 then stays false until i's " +
	"next 4d, which 4b precedes, and every read of DISCOVER1[i][q] follows a read of DISCOVER0 true in the same condition " +
	"(q at 11a.ii and 11b, i at line 4 and 4f), so that DISCOVER1 is never read"

// zehaviCompeteIgnore is why lines 1 and 2 may be swapped.
const zehaviCompeteIgnore = "still correct: the mutant raises IGNORE[i][q] (line 2) for every q before COMPETE[i][q] " +
	"(line 1). The paper's proofs use the two lines only through its Observations 1 and 2 (COMPETE[i][q] is true exactly " +
	"from i's line 1 for q to its line 15, IGNORE[i][q] exactly from its line 2 to its line 8), which hold for the mutant " +
	"as stated, and through both lines preceding the Label (line 3): Lemma 4 infers from a Label of i that started before " +
	"some time that i had by then executed line 1 for q (case 1) or line 2 (case 3), and Lemma 6 that a non-faulty process " +
	"waiting or in its remainder has IGNORE false. No proof uses the order of lines 1 and 2 themselves; the doorway still " +
	"begins with the passage's first step, so FIFE (Lemma 5) means the same, and each register gets the same writes per " +
	"passage (Lemma 7's count of remote references)"

var zehaviEquivalences = map[string]string{
	"Acquire/swap@1,2": zehaviCompeteIgnore,
	"Acquire/swap@2,3": LocalCommute,
	"Acquire/swap@8,9": "the same executions: line 9's loop only clears precede, a Step local that nothing reads " +
		"before line 10 and that is all false there anyway (line 9's own equivalences), and each of the two loops sets its own loop " +
		"variable q before reading it, so moving it across line 8's writes of IGNORE changes no step of any process " +
		"(not LocalCommute's rule, which rejects two statements that both write q)",
	"Acquire/swap@9,9":                LocalCommute,
	"Acquire/swap@10,10":              LocalCommute,
	"Acquire/swap@11a,11b":            zehaviWhileBody,
	"Acquire/swap@11a.i,11a.i":        LocalCommute,
	"Acquire/swap@11a.i,11a.ii":       zehaviDropOrder,
	"Acquire/swap@11a.ii,11a.ii":      LocalCommute,
	"Acquire/swap@11b.i,11b.i":        LocalCommute,
	"Acquire/delete@3":                stepZero("mine"),
	"Acquire/off-by-one-from+1@3":     zehaviLabelSkipsZero,
	"Acquire/delete@9#2":              stepZero("cnt"),
	"Acquire/delete@9":                zehaviPrecede,
	"Acquire/delete@9#3":              zehaviPrecede,
	"Acquire/off-by-one-from+1@9":     zehaviPrecede,
	"Acquire/off-by-one-to-1@9":       zehaviPrecede,
	"Acquire/delete@11b.i#2":          zehaviAllowed,
	"Acquire/delete@11b.i#4":          zehaviAllowed,
	"Acquire/off-by-one-from+1@11b.i": zehaviAllowed,
	"Acquire/off-by-one-to-1@11b.i":   zehaviAllowed,
	"Release/delete@14b":              zehaviRelease14,
	"Release/swap@14a,14b":            zehaviRelease14,
	"Release/swap@14,15":              zehaviRelease1415,
	"Acquire/delete@4a":               "redundant write: line 4a writes false over false. " + zehaviDiscovery,
	"Acquire/swap@4a,4b": "the same executions: line 4a writes false over false, so moving it after 4b changes no " +
		"register at any time. " + zehaviDiscovery,
	"Acquire/delete@4b": "the same visible executions: the mutant leaves DISCOVER1[i][q] true where 4b would clear it. " +
		zehaviDiscovery + ". Outside i's body of line 4 the two cells are both false, both true, or, from q's 14a to its " +
		"14b, DISCOVER0 false and DISCOVER1 true, so at 4b DISCOVER1 is true only while q is between its 14a and 14b (or " +
		"crashed there). REVEAL[q] is false then, so i's 4d and 4e write nothing, 4f reads DISCOVER0 false and does not read " +
		"DISCOVER1, and 4f.ii clears it; q, in its exit code, does not read it, and its 14b clears it too. Nobody reads the " +
		"cell while the two differ, and if i crashes first, DISCOVER0 stays false for ever and DISCOVER1 is never read again",
	"Acquire/swap@4b,4c": "the same visible executions: the mutant clears ALLOW[i][q] before DISCOVER1[i][q] instead of " +
		"after. " + zehaviDiscovery + ". " + zehaviDiscoveryRead + " (in both orders 4b and 4c precede 4d and 4e), so no " +
		"process reads either register between the two writes, and their order is invisible",
	"Acquire/swap@4c,4d": "the same visible executions: the mutant clears ALLOW[i][q] (4c) after 4d may set " +
		"DISCOVER0[i][q] true, instead of before. " + zehaviDiscovery + ". " + zehaviDiscoveryRead + "; 4c precedes 4e in both " +
		"orders, so every read of ALLOW[i][q] that follows a read of both cells true sees 4c's write in both (a read of " +
		"DISCOVER0 true between the mutant's 4d and 4c is followed by a read of DISCOVER1 that is true only after 4e). 4c's " +
		"write commutes with 4d's read of REVEAL[q] (other registers)",
	"Acquire/delete@4f.ii": zehaviStale4f,
	"Acquire/delete@4f":    zehaviUnnormalised,
	"Acquire/swap@4d,4e": "the same visible executions: the mutant sets DISCOVER1[i][q] on its first read of REVEAL[q] " +
		"true and DISCOVER0 on its second, where the original sets DISCOVER0 on the first and DISCOVER1 on the second. " +
		"Take the same schedule in both. A process concludes that i discovered q only by reading DISCOVER0[i][q] true and " +
		"then DISCOVER1[i][q] true (q at 11a.ii and 11b; i's 4f reads its own writes and finds both true exactly when both " +
		"reads were true, in both programs, and clears both otherwise). Both reads true: in the mutant DISCOVER0 is true " +
		"only after the second write, so such a pair of reads succeeds there in the original too; a read of DISCOVER0 " +
		"between the two writes fails in the mutant, and in the original the first write can be moved to just after that " +
		"read, since i's step (read REVEAL[q], write DISCOVER0[i][q]) commutes with every step but q's reads of that cell and " +
		"q's writes of REVEAL[q], which q, between its lines 5 and 13 all that time, does not make. The reads differ: the " +
		"first true and the second false means q passed its line 13 in between, and from then on q reads neither cell " +
		"while a read before it finds DISCOVER1 false in the original and DISCOVER0 false in the mutant; the first false " +
		"and the second true leaves one cell true and the other false in each program, which every condition reads as " +
		"not discovered, and 4f clears both. If i crashes between the two, one cell is true and the other false in both " +
		"programs, read as not discovered, until q's line 14 clears them",
	"Acquire/delete@4f.i": zehaviUnnormalised,
	"Acquire/swap@4f.i,4f.ii": "the same visible executions: the mutant's 4f clears DISCOVER1[i][q] before DISCOVER0 " +
		"instead of after, so between the two writes DISCOVER0 may still be true with DISCOVER1 false, where the original " +
		"has DISCOVER0 false and DISCOVER1 possibly true. Every read of DISCOVER1[i][q] follows a read of DISCOVER0[i][q] true " +
		"in the same condition (q at 11a.ii and 11b, i at line 4 and 4f). In the mutant, a condition that reads DISCOVER0 true " +
		"from i's 4d up to that window reads DISCOVER1 after i's 4f found the pair not both true; i read DISCOVER0 true there " +
		"too (only i's 4f.i or q's line 14, which q cannot reach from 11, write false), so it read DISCOVER1 false, which stays " +
		"false (only i writes true, at 4e, already past): the condition fails, as it does in the original, whose DISCOVER0 " +
		"reads false in the window and whose DISCOVER1 there is read by no condition. After both writes the cells agree",
}

// zehaviRevealFirstK2 is what is known of the same swap at k ≥ 2.
const zehaviRevealFirstK2 = "not shown either way at k = 2: the mutant reveals i (line 5) before its discoveries (line " +
	"4). At k = 1 it is equivalent (zehavi[mutex]/Acquire/swap@4,5). At k ≥ 2 the paper's proof of k-exclusion needs the " +
	"original order in Lemma 4's case 4 (a process that entered on a grant: \"i executed line 5 and Scan_i in (Tc, I2)\", " +
	"which makes the granter's line 5 later than the grantee's), and we found no other argument. No check here finds a " +
	"violation. The only exhaustive one is bounded: SPIN's search at n = 3 (n = 2 is trivial) with one passage per process " +
	"passes k-exclusion at k = 2, in 20.8 minutes where the original's takes 10.2 (2026-11-27: " + zehaviHunt + " -layers spin " +
	"-spin-sizes 3 -spin-passages 1 -spin-fold -spin-collapse -spin-mem 19000 -spin-props mutual-exclusion -spin-timeout 40m " +
	"-spin-timeout-larger 40m; with 12 GB it had run out of memory after 11 minutes); more passages or n = 4 do not fit here. " +
	"Hunts of 2026-11-26, each " + zehaviHunt + " with: -layers explore -explore-budget 120s -explore-opts " +
	"'verify.ExploreRandom(1000000);verify.ExplorePCT(1000000, 6);verify.ExploreDFSLimit(0);verify.ExploreCrashRuns(0);" +
	"verify.ExplorePassages(3)' (46,721 executions, 4 processes); -layers explore -explore-budget 60s -explore-opts " +
	"'verify.ExploreRandom(0);verify.ExplorePCT(0, 4);verify.ExploreDFSLimit(0);verify.ExploreCrashRuns(1000000)' " +
	"(23,490 executions, one process crashing); -layers spin -spin-sizes 3 -spin-bitstate -spin-hash 33 -spin-mem 6000 " +
	"-spin-fold -spin-props mutual-exclusion -spin-timeout 12m -spin-timeout-larger 12m (a bitstate search, 12 minutes). " +
	"The mutation rerun of 2026-11-27 (12:03 UTC) found nothing either: explore-deep's 50 s (26,055 executions, the " +
	"k + 1 × 1 exhaustive search among them) and spin-hunt's 30 s bit-state search at n = 3, one passage per process"

// zehaviHunt is the start of the commands zehaviRevealFirstK2 cites.
const zehaviHunt = "go run ./lab/mutation/cmd/mutation -alg 'zehavi[kexclusion]' -only 'swap@4,5$' -controls=false"

func init() {
	for _, variant := range []string{"zehavi[kexclusion]/", "zehavi[mutex]/"} {
		for id, why := range zehaviEquivalences {
			Equivalences[variant+id] = why
		}
	}
	CheckedOnly["zehavi[kexclusion]/Acquire/swap@4,5"] = zehaviRevealFirstK2
}
