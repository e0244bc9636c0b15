package distributed

import (
	"fmt"

	"github.com/lockgen/lockgen/ir"
)

// Control is a named negative control: a definition with one line of the
// paper removed, which the checks must catch.
type Control struct {
	Name   string // "dcrew-drop-forward"
	Entry  string // the catalogue entry it changes
	Line   string // the paper's line it removes or changes
	Why    string // how the lock goes wrong without it
	Alg    *ir.Algorithm
	Breaks string // what the checks must report: "exclusion", "deadlock", "starvation" or "fcfs"
	// Change, when set, changes the line instead of removing it; it
	// reports whether it found the line's shape.
	Change func(a *ir.Algorithm) bool
	// Reorder: the change breaks the lock only over channels that reorder
	// messages, and the checks run it over them; over FIFO channels it is
	// harmless.
	Reorder bool
}

// Controls returns the negative controls of the message-passing catalogue.
// It fails when a line it removes is no longer in the definition.
func Controls() ([]Control, error) {
	specs := []Control{
		{Name: "dcrew-drop-forward", Entry: "dcrew", Line: "6q.14", Breaks: "deadlock",
			Why: "a process that is neither the holder nor the last waiter drops the request instead of passing it along current_dir: the requester waits for a token nobody will send"},
		{Name: "dcrew-no-path-update", Entry: "dcrew", Line: "6q.15", Breaks: "starvation",
			Why: "a process that handles a request does not point current_dir at the requester: the path list no longer leads to the end of the waiting list, and requests chase a token that moved"},
		{Name: "dcrew-skip-release-token", Entry: "dcrew", Line: "5r.3", Breaks: "deadlock",
			Why: "a releasing reader with a successor sends neither its release token nor the grant: the next reader never may leave, or the next writer never enters"},
		{Name: "dcrew-figure-release-token", Entry: "dcrew", Line: "5r.3", Breaks: "exclusion", Reorder: true,
			Why:    "a reader's release token carries token_type 0, as figure 5 shows, instead of section 3.2's 1: a successor reader that gets it before its grant takes it for a grant that needs no release token, enters and leaves, and the late grant is a second token (6t.8)",
			Change: func(a *ir.Algorithm) bool { return setSendArgs(a, "5r.3", ir.Const{V: 0}) }},
		{Name: "naimi-trehel-drop-forward", Entry: "naimi-trehel", Line: "Q6", Breaks: "deadlock",
			Why: "a process that is not the root drops the request instead of passing it to its father: the requester waits for ever"},
		{Name: "naimi-trehel-no-path-reversal", Entry: "naimi-trehel", Line: "Q7", Breaks: "exclusion",
			Why: "a process that handles a request does not make the requester its father: a root that gave the token away stays the root, and answers the next request with a token it no longer has (two tokens)"},
		{Name: "naimi-trehel-keep-token", Entry: "naimi-trehel", Line: "X3", Breaks: "deadlock",
			Why: "the holder leaves without sending the token to the next requester, who waits for ever"},
		{Name: "ricart-agrawala-not-requesting", Entry: "ricart-agrawala", Line: "A1", Breaks: "exclusion",
			Why: "a requester never says it is requesting, so it never defers a reply: two processes collect every permission at once"},
		{Name: "ricart-agrawala-no-reply", Entry: "ricart-agrawala", Line: "Q5", Breaks: "deadlock",
			Why: "a process that should grant its permission at once never does: the requester waits for ever"},
		{Name: "ricart-agrawala-forget-deferred", Entry: "ricart-agrawala", Line: "Q4", Breaks: "deadlock",
			Why: "a deferred reply is not recorded, so the release never sends it"},
		{Name: "carvalho-roucairol-no-rerequest", Entry: "carvalho-roucairol", Line: "Q6", Breaks: "deadlock",
			Why: "a requester that gives back a permission it held does not ask for it again: it waits for ever for a permission it never requested"},
		{Name: "carvalho-roucairol-not-using", Entry: "carvalho-roucairol", Line: "A7", Breaks: "exclusion",
			Why: "a process in the critical section on permissions it kept answers a request with a smaller sequence number at once: the requester enters too (why Using is kept apart from Requesting_Critical_Section)"},
		{Name: "lamport-1978-no-ack", Entry: "lamport-1978", Line: "2.4", Breaks: "deadlock",
			Why: "a request is queued but not acknowledged: a requester whose request is the latest hears nothing later from the others and waits for ever (rule 5's second condition)"},
		{Name: "lamport-1978-keep-released", Entry: "lamport-1978", Line: "4.3", Breaks: "deadlock",
			Why: "a release does not remove the releaser's request from the receiver's queue: the stale request stays at the head, and the receiver waits for ever"},
		{Name: "suzuki-kasami-no-rn-update", Entry: "suzuki-kasami", Line: "Q2", Breaks: "deadlock",
			Why: "a REQUEST does not raise RN[j]: the holder never sees the request outstanding, neither passes the token at once nor queues the requester"},
		{Name: "suzuki-kasami-keep-havetoken", Entry: "suzuki-kasami", Line: "X7", Breaks: "exclusion",
			Why: "a leaving holder passes the token on but still believes it holds it: it enters again beside the new holder"},
		{Name: "suzuki-kasami-queue-not-grown", Entry: "suzuki-kasami", Line: "X5", Breaks: "deadlock",
			Why: "the release writes the waiting process into the queue without counting it: the queue looks empty and the token stays with a holder that no longer wants it"},
		{Name: "raymond-drop-forward", Entry: "raymond", Line: "RM2", Breaks: "deadlock",
			Why: "a process that is not the holder queues a neighbour's request but does not pass it to its HOLDER (and believes it asked): the privilege never comes back along the path"},
		{Name: "raymond-asked-kept", Entry: "raymond", Line: "PA6", Breaks: "deadlock",
			Why: "a process that receives the privilege and passes it on does not clear ASKED: the next time its queue fills it never asks for the privilege again"},
		{Name: "raymond-keep-privilege", Entry: "raymond", Line: "XA8", Breaks: "deadlock",
			Why: "a process leaving the critical section points HOLDER at the next neighbour in its queue but never sends it the privilege"},
		{Name: "ricart-agrawala-token-no-request-record", Entry: "ricart-agrawala-token", Line: "Q2", Breaks: "deadlock",
			Why: "a REQUEST does not raise request[j]: no holder ever sees j's request as newer than the token's record, and j waits for ever"},
		{Name: "ricart-agrawala-token-keep-present", Entry: "ricart-agrawala-token", Line: "X5", Breaks: "exclusion",
			Why: "a leaving holder sends the token on but still believes it holds it: it enters again beside the new holder"},
		{Name: "le-lann-no-token", Entry: "le-lann", Line: "S2", Breaks: "deadlock",
			Why: "nobody puts the token on the ring: every requester waits for ever"},
		{Name: "le-lann-drop-unwanted", Entry: "le-lann", Line: "T3", Breaks: "deadlock",
			Why: "a process that does not want the token drops it instead of passing it on"},
		{Name: "le-lann-keep-token", Entry: "le-lann", Line: "X1", Breaks: "exclusion",
			Why: "a leaving process passes the token on but still believes it holds it: its next acquire enters at once, beside the token's next holder"},
		{Name: "dijkstra-ring-silent-move", Entry: "dijkstra-ring", Line: "M2", Breaks: "deadlock",
			Why: "an idle machine moves but does not show its new state to its right neighbour: the privilege stops there"},
		{Name: "dijkstra-ring-keep-privilege", Entry: "dijkstra-ring", Line: "X1", Breaks: "exclusion",
			Why: "a machine leaving the critical section moves but still believes it holds the privilege: its next acquire enters at once, beside the privilege's next holder"},
		{Name: "ricart-agrawala-ties-to-larger-id", Entry: "ricart-agrawala", Line: "Q3", Breaks: "fcfs",
			Why:    "between requests with the same sequence number the larger id goes first (j > i reversed): still one order, so still exclusion, but not the order of (sequence number, id) the paper promises",
			Change: func(a *ir.Algorithm) bool { return reverseTieBreak(a, "REQUEST", "Q3") }},
	}
	for i, c := range specs {
		e, ok := Lookup(c.Entry)
		if !ok {
			return nil, fmt.Errorf("control %s: no entry %s", c.Name, c.Entry)
		}
		a := e.Def()
		changed := false
		if c.Change != nil {
			changed = c.Change(a)
		} else {
			changed = deleteLine(a, c.Line)
		}
		if !changed {
			return nil, fmt.Errorf("control %s: %s has no line %s of the shape it changes", c.Name, c.Entry, c.Line)
		}
		a.Name = c.Name
		specs[i].Alg = a
	}
	return specs, nil
}

// deleteLine removes the statement labelled label from a's routines and
// handlers (or the start); it reports whether there was one.
func deleteLine(a *ir.Algorithm, label string) bool {
	return rewrite(a, label, func(ir.Stmt) []ir.Stmt { return nil })
}

// setSendArgs gives the send labelled label the arguments args; it
// reports whether there was such a send.
func setSendArgs(a *ir.Algorithm, label string, args ...ir.Expr) bool {
	ok := false
	found := rewrite(a, label, func(s ir.Stmt) []ir.Stmt {
		if send, isSend := s.(ir.Send); isSend && len(send.Args) == len(args) {
			send.Args, ok = args, true
			return []ir.Stmt{send}
		}
		return []ir.Stmt{s}
	})
	return found && ok
}

// rewrite replaces each statement labelled label in a's routines and
// handlers (or the start) by what f makes of it; it reports whether there
// was one.
func rewrite(a *ir.Algorithm, label string, f func(ir.Stmt) []ir.Stmt) bool {
	found := false
	var walk func(ir.Code) ir.Code
	walk = func(c ir.Code) ir.Code {
		var out ir.Code
		for _, s := range c {
			if s.Label() == label {
				found = true
				out = append(out, f(s)...)
				continue
			}
			switch st := s.(type) {
			case ir.If:
				st.Then, st.Else = walk(st.Then), walk(st.Else)
				s = st
			case ir.For:
				st.Body = walk(st.Body)
				s = st
			}
			out = append(out, s)
		}
		return out
	}
	for _, op := range []*ir.Code{&a.Start, &a.Acquire, &a.Release, &a.RAcquire, &a.RRelease} {
		*op = walk(*op)
	}
	for i := range a.Handlers {
		a.Handlers[i].Code = walk(a.Handlers[i].Code)
	}
	return found
}

// reverseTieBreak turns j > i, in the condition of the If labelled label
// in the handler of msg, into j < i.
func reverseTieBreak(a *ir.Algorithm, msg, label string) bool {
	h := a.Handler(msg)
	if h == nil {
		return false
	}
	done := false
	var rev func(e ir.Expr) ir.Expr
	rev = func(e ir.Expr) ir.Expr {
		b, ok := e.(ir.Bin)
		if !ok {
			return e
		}
		if _, self := b.Y.(ir.Self); self && b.Op == ir.Gt && b.X == (ir.LocalRef{Name: "j"}) {
			done = true
			b.Op = ir.Lt
			return b
		}
		b.X, b.Y = rev(b.X), rev(b.Y)
		return b
	}
	for i, s := range h.Code {
		if iff, ok := s.(ir.If); ok && iff.Label() == label {
			iff.Cond = rev(iff.Cond)
			h.Code[i] = iff
		}
	}
	return done
}
