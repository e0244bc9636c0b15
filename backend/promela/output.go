package promela

import (
	"fmt"
	"strings"
)

// Writing the model text: steps, guards, markers.

func (l *lower) raw(s string) {
	l.flush()
	l.out.WriteString(s + "\n")
}

// emit writes one line of the current statement, with its Promela label (if
// not yet written) and marker.
func (l *lower) emit(s string) {
	l.flush()
	l.write(s)
}

// write is emit without closing the open step.
func (l *lower) write(s string) {
	lbl := ""
	if l.label != "" {
		lbl = l.label + ":"
		l.label = ""
	}
	line := lbl + "\t" + strings.Repeat("\t", l.ind) + s
	if l.mark != "" {
		line += "\t/*@ " + l.mark + " */"
	}
	l.raw(line)
}

// marker is the comment the driver maps trail lines with.
func marker(op, label, text string) string {
	text = strings.ReplaceAll(text, "*/", "* /")
	text = strings.ReplaceAll(text, "|", "¦")
	return op + "|" + label + "|" + text
}

// promelaLabel turns a paper label into a unique Promela label.
func (l *lower) promelaLabel(paper string) string {
	if paper == "" {
		return ""
	}
	base := "L" + strings.TrimPrefix(ident(paper), "_")
	l.labels[base]++
	if c := l.labels[base]; c > 1 {
		return fmt.Sprintf("%s_%d", base, c)
	}
	return base
}

// step writes one transition: a single statement, or an atomic sequence
// holding at most one shared access plus local bookkeeping. With
// Options.Fold the step stays open for the local work after it (see
// work), and takes in local work left open before it, unless it blocks
// (guard) or is a goto target (labels lg_*).
func (l *lower) step(parts ...string) { l.visible(false, parts) }

// guard writes a step that blocks until its first part holds.
func (l *lower) guard(parts ...string) { l.visible(true, parts) }

func (l *lower) visible(blocks bool, parts []string) {
	ps := nonEmpty(parts...)
	if !l.o.Fold {
		l.write(stepText(ps))
		return
	}
	if o := l.open; o != nil && o.resets && !blocks {
		// Resets only: they join the step (a goto target keeps its label:
		// the locals are dead on every way in).
		o.parts = append(o.parts, ps...)
		o.visible, o.resets, o.label, o.mark = true, false, l.label, l.mark
		l.label = ""
		return
	}
	if o := l.open; o != nil && !o.visible && !blocks && !strings.HasPrefix(l.label, "lg_") {
		o.parts = append(o.parts, ps...)
		o.visible, o.mark = true, l.mark // the trail names the shared access
		l.label = ""
		return
	}
	l.flush()
	l.open = &openStep{parts: ps, visible: true, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// work writes local work: a step of its own, or with Options.Fold part
// of the open step (a new one if none is open).
func (l *lower) work(parts ...string) {
	ps := nonEmpty(parts...)
	if !l.o.Fold {
		l.write(stepText(ps))
		return
	}
	if len(ps) == 0 {
		return
	}
	if o := l.open; o != nil {
		o.parts = append(o.parts, ps...)
		if o.resets {
			o.resets, o.label, o.mark = false, l.label, l.mark
		}
		l.label = ""
		return
	}
	l.open = &openStep{parts: ps, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// dead resets locals left dead (Options.Fold): work that the next
// statement's step, or its work, takes in and names.
func (l *lower) dead(resets []string) {
	resets = l.needed(resets)
	if len(resets) == 0 {
		return
	}
	fresh := l.open == nil
	l.work(resets...)
	if fresh {
		l.open.resets = true
	}
}

// openStep is a transition still being assembled (Options.Fold): at most
// one shared access or ghost update (visible), first if it blocks, and
// local work.
type openStep struct {
	prefix  string // ":: " when the step is a do- or if-option
	parts   []string
	visible bool
	resets  bool // only resets so far (never an option): the next statement names the step
	label   string
	mark    string
	ind     int
}

// flush writes the open step, if any.
func (l *lower) flush() {
	o := l.open
	if o == nil {
		return
	}
	l.open = nil
	label, mark, ind := l.label, l.mark, l.ind
	l.label, l.mark, l.ind = o.label, o.mark, o.ind
	l.write(o.prefix + stepText(o.parts))
	l.label, l.mark, l.ind = label, mark, ind
}

// option starts a do- or if-option guarded by cond, with work done when it
// is taken. With Options.Fold, when cond reads no shared memory, the option
// stays open: its first step and local work join the guard's transition.
func (l *lower) option(cond string, local bool, work ...string) {
	ps := append([]string{cond}, nonEmpty(work...)...)
	if !l.o.Fold || !local {
		if len(ps) == 1 {
			l.emit(":: " + cond + " ->")
		} else {
			l.emit(":: " + atomicGuard(cond, strings.Join(ps[1:], "; "), "") + ";")
		}
		return
	}
	l.flush()
	l.open = &openStep{prefix: ":: ", parts: ps, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// stepText is one transition's text.
func stepText(ps []string) string {
	body := strings.Join(ps, "; ")
	switch {
	case body == "":
		return "skip;"
	case strings.ContainsAny(body, ";") || strings.Contains(body, "->") || strings.HasPrefix(body, "if "):
		return "atomic { " + body + " };"
	}
	return body + ";"
}
