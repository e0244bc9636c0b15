/*
 * lockgen's epoch protocol (docs/distributed.md, "Epoch protocol"), written
 * by hand from that description for SPIN: N processes that join a group
 * kept in a key-value store, hold leases, may crash and restart as new
 * incarnations, may pause for any time, and run a token lock in epochs;
 * a resource that checks fencing tokens.
 *
 * What is modelled, and how:
 *
 * - The store (JetStream's bucket) is shared variables, every operation
 *   one atomic step: the epoch record (kvE, kvRev, kvMem: its epoch, its
 *   revision, the incarnation of each member) and the member keys (mkInc:
 *   the incarnation holding member.<i>, 0 if absent; mkAge: the time since
 *   it was last written). Create succeeds only if the key is absent,
 *   Update only at the revision read, a watcher's Delete only at the
 *   revision it saw. A proposal is two steps, the read and the
 *   compare-and-set, with anything in between.
 * - Time is a clock process that may tick at any moment: a process that
 *   is not scheduled while it ticks is paused, for as long as the search
 *   likes (GC, SIGSTOP). Durations are kept relative to now, so the state
 *   space is finite: left[p] is how long process p's lease timer may still
 *   not have fired (its lease, plus LATE, the most a timer fires late or
 *   a clock runs behind: the margin Ld − L of the real lock-delay), and
 *   mkAge[i] the time since member.<i> was written. A watcher times the
 *   lock-delay from the write itself, not from when the update reached it:
 *   the earliest it could, so the worst case for safety. Renewal is
 *   modelled as one step (sent, applied and answered at once); its period
 *   is not: a process renews whenever it is scheduled and its lease has
 *   not run out (now <= until), which covers every period.
 * - A process joins with a fresh incarnation (the counter nextInc: any
 *   unique number), claims its member key (taking over a dead
 *   incarnation's once the key has kept one revision for LD), creates the
 *   epoch record or proposes itself in it, then renews, watches, takes
 *   views and runs the lock. Any member may remove any other member of its
 *   newest view (the ring's predecessor is one of them): at once if the
 *   key is absent or another incarnation's, otherwise by deleting the key
 *   once it has kept one revision for LD. A removed process that sees a
 *   view without it, or finds its key gone when it renews, fails. A
 *   process may crash at any step, losing everything; RESTARTS restarts in
 *   all. Epoch numbers are the record's plus one (the real clock's
 *   milliseconds only make them larger).
 * - The lock within an epoch is a token: the lowest member starts with it
 *   when it switches; the holder enters if the epoch is open (READY from
 *   every member), its lease has not run out and fewer than CMAX passages
 *   of the epoch have been granted, with the fence epoch·CB + counter; the
 *   holder passes the token (carrying the counter) to another member when
 *   it is not in a passage. This stands for any of the catalogue's
 *   algorithms, whose exclusion within an epoch their own proofs and SPIN
 *   runs establish; mutex only (no readers).
 * - A passage is two accesses to the resource (first, last), then the
 *   release. A paused holder's accesses may come at any time later.
 * - Messages (READY and TOKEN) go over one channel per ordered pair,
 *   each carrying the epoch and the sender's and receiver's incarnations;
 *   a receiver drops a message to another incarnation, of an older epoch,
 *   of its epoch while closing it or from a sender not of its epoch's
 *   incarnation, and keeps one of a newer epoch for later. The network
 *   may lose any message and reorder any two (NATS core keeps each pair's
 *   order within a connection and loses only across a failure: this is
 *   more). It does not duplicate (NATS core delivers at most once).
 *
 * Not modelled: the lock-delay D carried in the epoch record (it covers
 * holders from before a server restart; this store never restarts and
 * starts empty), Close, NewEpoch when the fencing clock runs out, n and
 * algorithm checks at join, outsiders, readers.
 *
 * Properties, checked as assertions:
 *  (a) CHECK_A: no passage's accepted accesses interleave with another
 *      passage's accepted access (the resource's view; netstress.Resource's
 *      "violation").
 *  (b) CHECK_B: fences increase: a passage's first accepted access has a
 *      fence above every fence accepted before, and no access is refused
 *      for a fence of the same epoch as the largest accepted (an
 *      "inversion").
 *  (c) CHECK_C: when a process is granted, every other process inside a
 *      passage has lost its lease, and its lease timer has fired however
 *      late (its Done is closed).
 * With none of them defined, all three are checked.
 *
 * Controls (each must fail): NO_LOCKDELAY (a watcher removes a member as
 * soon as its lease has run out, LD = L: (c) fails), RESTART_SAME (a
 * process restarts with its old incarnation), BLIND (the record's
 * Create and Update are blind writes of what was read), NOFENCE (the
 * resource accepts every fence: (a) fails).
 */

#ifndef N
#define N 2
#endif
#ifndef RESTARTS
#define RESTARTS 1
#endif
#if !defined(CHECK_A) && !defined(CHECK_B) && !defined(CHECK_C)
#define CHECK_A
#define CHECK_B
#define CHECK_C
#endif

#ifndef L
#define L    1 /* the lease */
#endif
#define LATE 1 /* how late a lease timer may fire */
#ifdef NO_LOCKDELAY
#define LD L
#else
#define LD (L + LATE) /* the lock-delay */
#endif
#ifndef CMAX
#define CMAX 2 /* passages per epoch */
#endif
#define CB (CMAX + 1) /* fence = epoch·CB + counter */
#define CAP 2         /* messages in flight per ordered pair */

/* phases of a process */
#define DOWN    0
#define CLAIM   1 /* claiming member.<p> */
#define CREATE  2 /* creating the epoch record, or proposing itself */
#define CREATED 3 /* BLIND only: read the record absent, writes it next */
#define JOINING 4 /* proposing itself */
#define RUN     5

/* states of the lock */
#define NONE    0 /* no epoch yet */
#define OPENING 1
#define OPEN    2
#define CLOSING 3

/* proposals */
#define ADD    1
#define REMOVE 2

mtype = { READY, TOKEN };

/* the store */
byte kvE;      /* the epoch record's epoch; 0: no record */
byte kvRev;    /* its revision */
byte kvMem[N]; /* the incarnation of each member; 0: not a member */
byte mkInc[N]; /* member.<i>: the incarnation that holds it; 0: absent */
byte mkAge[N]; /* time since member.<i> was written, up to LD */

/* the resource */
byte rMax;      /* the largest fence accepted */
bit  rOpen[N];  /* p's passage has an accepted access and has not ended */
bit  rCross[N]; /* another passage's access was accepted since p's last */

/* the processes */
byte inc[N];     /* incarnation; 0: down */
byte ph[N];      /* phase */
byte left[N];    /* until + LATE - now, at least 0 */
bit  member[N];  /* has taken a view with itself */
byte vE[N];      /* the newest view taken: its epoch */
byte vInc[N*N];  /* and its members' incarnations, [p*N + j] */
byte ep[N];      /* the lock's epoch */
byte st[N];      /* the lock's state */
bit  tok[N];     /* holds the epoch's token */
byte cnt[N];     /* fencing counter within the epoch */
byte rdy[N];     /* READY received, a bit per member */
byte cs[N];      /* passage: 0 none, 1 granted, 2 first access made */
byte fence[N];
byte prOp[N];    /* the proposal under way: 0 none, ADD, REMOVE */
byte prX[N];     /* its member */
byte prXInc[N];  /* and that member's incarnation */
bit  prRead[N];  /* the record has been read: prRev */
byte prRev[N];
#ifdef BLIND
byte sE[N];      /* the record as read */
byte sMem[N*N];
#endif
byte restarts;
byte nextInc = N;

/* kind, epoch, from's incarnation, to's incarnation, counter */
chan net[N*N] = [CAP] of { mtype, byte, byte, byte, byte };

inline fail(p) {
	inc[p] = 0; ph[p] = DOWN; left[p] = 0; member[p] = 0; vE[p] = 0; ep[p] = 0;
	st[p] = NONE; tok[p] = 0; cnt[p] = 0; rdy[p] = 0; cs[p] = 0; fence[p] = 0;
	prOp[p] = 0; prX[p] = 0; prXInc[p] = 0; prRead[p] = 0; prRev[p] = 0;
	rOpen[p] = 0; rCross[p] = 0;
	for (j : 0 .. N-1) { vInc[p*N + j] = 0 }
	j = 0
}

/* send puts a message in flight; a full channel loses it */
inline send(sTo, sKind, sC) {
	if
	:: nfull(net[p*N + sTo]) -> net[p*N + sTo]!sKind, ep[p], inc[p], vInc[p*N + sTo], sC
	:: full(net[p*N + sTo]) -> skip
	fi
}

/* opens the epoch once every member's READY is in */
inline maybeOpen() {
	k = 1;
	for (j : 0 .. N-1) {
		if
		:: vInc[p*N + j] != 0 && (rdy[p] & (1 << j)) == 0 -> k = 0
		:: else -> skip
		fi
	}
	if
	:: st[p] == OPENING && k -> st[p] = OPEN
	:: else -> skip
	fi;
	j = 0; k = 0
}

/* switchEpoch starts the lock in the newest view: the algorithm from its
 * initial state (the token at the lowest member), READY to the others */
inline switchEpoch() {
	ep[p] = vE[p]; st[p] = OPENING; cnt[p] = 0; rdy[p] = 1 << p; tok[p] = 1;
	for (j : 0 .. N-1) {
		if
		:: j < p && vInc[p*N + j] != 0 -> tok[p] = 0
		:: else -> skip
		fi
	}
	for (j : 0 .. N-1) {
		if
		:: j != p && vInc[p*N + j] != 0 -> send(j, READY, 0)
		:: else -> skip
		fi
	}
	j = 0;
	maybeOpen()
}

/* access is one access of p's passage to the resource, which accepts a
 * fence not below the largest it has accepted */
inline access(aFirst, aLast) {
#ifdef NOFENCE
	if
	:: true ->
#else
	if
	:: fence[p] >= rMax ->
#endif
#ifdef CHECK_B
		assert(!aFirst || fence[p] > rMax);  /* (b) */
#endif
#ifdef CHECK_A
		assert(!rCross[p]);                 /* (a) */
#endif
		for (j : 0 .. N-1) {
			if
			:: j != p && rOpen[j] -> rCross[j] = 1
			:: else -> skip
			fi
		}
		j = 0;
		rOpen[p] = !aLast; rCross[p] = 0;
		if
		:: fence[p] > rMax -> rMax = fence[p]
		:: else -> skip
		fi
	:: else ->
#ifdef CHECK_B
		assert(fence[p] / CB != rMax / CB); /* (b): no inversion */
#endif
		skip
	fi
}

/* proposal's change applied to the record (kvE, kvMem) or, BLIND, to the
 * record as read; written with the next epoch if it changes anything */
inline commit() {
#ifdef BLIND
	k = 0;
	if
	:: prOp[p] == ADD -> k = 1
	:: prOp[p] == REMOVE && sMem[p*N + prX[p]] == prXInc[p] -> k = 1
	:: else -> skip
	fi;
	if
	:: k ->
		for (j : 0 .. N-1) { kvMem[j] = sMem[p*N + j] }
		kvMem[prX[p]] = (prOp[p] == ADD -> prXInc[p] : 0);
		kvE = sE[p] + 1; kvRev++
	:: else -> skip
	fi;
	for (j : 0 .. N-1) { sMem[p*N + j] = 0 }
	sE[p] = 0; j = 0; k = 0;
#else
	if
	:: prOp[p] == ADD -> kvMem[prX[p]] = prXInc[p]; kvE++; kvRev++
	:: prOp[p] == REMOVE && kvMem[prX[p]] == prXInc[p] -> kvMem[prX[p]] = 0; kvE++; kvRev++
	:: else -> skip
	fi;
#endif
	if
	:: ph[p] == JOINING -> ph[p] = RUN
	:: else -> skip
	fi;
	prOp[p] = 0; prX[p] = 0; prXInc[p] = 0; prRead[p] = 0; prRev[p] = 0
}

/* receive from q: the head of q's channel to p is handled, dropped, or
 * lost; one of a newer epoch stays for later */
inline receive(q) {
	atomic {
		q != p && ph[p] == RUN && nempty(net[q*N + p]) ->
		net[q*N + p]?<mk, mE, mFrom, mTo, mC>;
		if
		:: mTo == inc[p] && mE > ep[p] -> skip /* kept for later */
		:: mTo != inc[p] || mE < ep[p] || mE == ep[p] && (st[p] == CLOSING || mFrom != vInc[p*N + q]) ->
			net[q*N + p]?_, _, _, _, _ /* dropped */
		:: mTo == inc[p] && mE == ep[p] && st[p] != CLOSING && mFrom == vInc[p*N + q] ->
			net[q*N + p]?_, _, _, _, _;
			if
			:: mk == READY -> rdy[p] = rdy[p] | (1 << q); maybeOpen()
			:: mk == TOKEN -> tok[p] = 1;
				if
				:: mC > cnt[p] -> cnt[p] = mC
				:: else -> skip
				fi
			fi
		:: net[q*N + p]?_, _, _, _, _ /* lost */
		fi;
		mk = READY; mE = 0; mFrom = 0; mTo = 0; mC = 0
	}
}

proctype Proc(byte p) {
	byte j, k, mE, mFrom, mTo, mC;
	mtype mk = READY;
end:
	do
	/* crash, or the lock failing: the incarnation is gone */
	:: atomic { inc[p] != 0 -> fail(p) } /*@ crash||crash */

	/* restart as a new incarnation (RESTART_SAME: the old one) */
	:: atomic { inc[p] == 0 && restarts < RESTARTS ->
		restarts++;
#ifdef RESTART_SAME
		inc[p] = p + 1;
#else
		nextInc++; inc[p] = nextInc;
#endif
		ph[p] = CLAIM } /*@ restart||restart */

	/* Join 2: claim member.<p>; take it over from a dead incarnation */
	:: atomic { ph[p] == CLAIM && mkInc[p] == 0 ->
		mkInc[p] = inc[p]; mkAge[p] = 0; left[p] = L + LATE; ph[p] = CREATE } /*@ join||create member key */
	:: atomic { ph[p] == CLAIM && mkInc[p] != 0 && mkAge[p] >= LD ->
		mkInc[p] = 0; mkAge[p] = 0 } /*@ join||delete a dead incarnation's member key */

	/* Join 3: create the epoch record, or propose itself in it */
#ifdef BLIND
	:: atomic { ph[p] == CREATE && kvE == 0 -> ph[p] = CREATED } /*@ join||read: no epoch record */
	:: atomic { ph[p] == CREATED ->
		for (j : 0 .. N-1) { kvMem[j] = 0 }
		j = 0; kvMem[p] = inc[p]; kvE = 1; kvRev++; ph[p] = RUN } /*@ join||blind write of the epoch record */
#else
	:: atomic { ph[p] == CREATE && kvE == 0 ->
		kvMem[p] = inc[p]; kvE = 1; kvRev = 1; ph[p] = RUN } /*@ join||create the epoch record */
#endif
	:: atomic { ph[p] == CREATE && kvE != 0 ->
		ph[p] = JOINING; prOp[p] = ADD; prX[p] = p; prXInc[p] = inc[p] } /*@ join||propose itself */

	/* a proposal: read, then compare-and-set (BLIND: write) */
	:: atomic { prOp[p] != 0 && !prRead[p] ->
		prRead[p] = 1; prRev[p] = kvRev;
#ifdef BLIND
		sE[p] = kvE;
		for (j : 0 .. N-1) { sMem[p*N + j] = kvMem[j] }
		j = 0
#endif
	} /*@ propose||read the epoch record */
#ifdef BLIND
	:: atomic { prOp[p] != 0 && prRead[p] -> commit() } /*@ propose||blind write of the epoch record */
#else
	:: atomic { prOp[p] != 0 && prRead[p] && kvRev == prRev[p] -> commit() } /*@ propose||compare-and-set the epoch record */
	:: atomic { prOp[p] != 0 && prRead[p] && kvRev != prRev[p] -> prRead[p] = 0; prRev[p] = 0 } /*@ propose||revision conflict */
#endif

	/* Renew: extends the lease only if it has not run out */
	:: atomic { ph[p] == RUN && mkInc[p] == inc[p] && left[p] >= LATE ->
		mkAge[p] = 0; left[p] = L + LATE } /*@ renew||renew the lease */
	:: atomic { ph[p] == RUN && mkInc[p] != inc[p] -> fail(p) } /*@ renew||key gone: expelled */

	/* Watch: remove a member of its newest view that left or whose
	 * key has kept one revision for the lock-delay */
	:: atomic { ph[p] == RUN && prOp[p] == 0 ->
		select (k : 0 .. N-1);
		if
		:: k != p && vInc[p*N + k] != 0 && mkInc[k] != vInc[p*N + k] ->
			prOp[p] = REMOVE; prX[p] = k; prXInc[p] = vInc[p*N + k]
		:: k != p && vInc[p*N + k] != 0 && mkInc[k] == vInc[p*N + k] && mkAge[k] >= LD ->
			mkInc[k] = 0; mkAge[k] = 0;
			prOp[p] = REMOVE; prX[p] = k; prXInc[p] = vInc[p*N + k]
		:: else -> skip
		fi;
		k = 0 } /*@ watch||remove a member */

	/* Views: a newer epoch record; one without it after one with it
	 * means it was removed */
	:: atomic { ph[p] == RUN && kvE > vE[p] && (kvMem[p] == inc[p] || member[p]) ->
		if
		:: kvMem[p] != inc[p] -> fail(p)
		:: else ->
			vE[p] = kvE; member[p] = 1;
			for (j : 0 .. N-1) { vInc[p*N + j] = kvMem[j] }
			j = 0;
			if
			:: cs[p] == 0 -> switchEpoch()
			:: else -> st[p] = CLOSING
			fi
		fi } /*@ view||take a view */
	/* Switch once the passage that held the closing epoch has ended */
	:: atomic { st[p] == CLOSING && cs[p] == 0 -> switchEpoch() } /*@ view||switch epochs */

	/* the messages of each member */
	:: receive(0) /*@ receive||from p0 */
	:: receive(1) /*@ receive||from p1 */
#if N > 2
	:: receive(2) /*@ receive||from p2 */
#endif

	/* pass the token to another member of the epoch */
	:: atomic { ph[p] == RUN && tok[p] && cs[p] == 0 && (st[p] == OPEN || st[p] == OPENING) ->
		select (k : 0 .. N-1);
		if
		:: k != p && vInc[p*N + k] != 0 -> send(k, TOKEN, cnt[p]); tok[p] = 0
		:: else -> skip
		fi;
		k = 0 } /*@ token||pass the token */

	/* grant: the token, the epoch open, the lease not run out */
	:: atomic { ph[p] == RUN && st[p] == OPEN && tok[p] && cs[p] == 0 && cnt[p] < CMAX && left[p] > 0 ->
#ifdef CHECK_C
		for (j : 0 .. N-1) {
			assert(j == p || cs[j] == 0 || left[j] == 0) /* (c) */
		}
		j = 0;
#endif
		cnt[p]++; fence[p] = ep[p]*CB + cnt[p]; cs[p] = 1 } /*@ passage||granted */
	:: atomic { cs[p] == 1 -> access(1, 0); cs[p] = 2 } /*@ passage||first access */
	:: atomic { cs[p] == 2 -> access(0, 1); cs[p] = 0; fence[p] = 0 } /*@ passage||last access, release */
	od
}

/* the clock: one tick; left and mkAge stop where they no longer matter */
proctype Clock() {
	byte j;
end:
	do
	:: atomic {
		for (j : 0 .. N-1) {
			if
			:: left[j] > 0 -> left[j]--
			:: else -> skip
			fi;
			if
			:: mkInc[j] != 0 && mkAge[j] < LD -> mkAge[j]++
			:: else -> skip
			fi
		}
		j = 0 } /*@ clock||tick */
	od
}

init {
	byte i;
	atomic {
		for (i : 0 .. N-1) { inc[i] = i + 1; ph[i] = CLAIM }
		for (i : 0 .. N-1) { run Proc(i) }
		i = 0;
		run Clock()
	}
}
