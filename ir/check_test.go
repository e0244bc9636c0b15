package ir_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

func TestCheckAcceptsTheFixtures(t *testing.T) {
	for _, a := range []*ir.Algorithm{queue(), ring()} {
		if err := ir.Check(a); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
	}
}

// checkCase is one edit that makes a fixture wrong and the error Check
// must give for it.
type checkCase struct {
	name string
	edit func(a *ir.Algorithm)
	want string
}

// runCheckCases requires that each edit of a fresh fixture fails Check
// with an error containing want.
func runCheckCases(t *testing.T, fixture func() *ir.Algorithm, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := fixture()
			c.edit(a)
			err := ir.Check(a)
			if err == nil {
				t.Fatalf("Check accepted it; want an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check: %v\nwant an error containing %q", err, c.want)
			}
		})
	}
}

func TestCheckRejectsSharedMemory(t *testing.T) {
	runCheckCases(t, queue, []checkCase{
		{"no release", func(a *ir.Algorithm) { a.Release = nil },
			"q: Acquire and Release are required"},
		{"shared twice", func(a *ir.Algorithm) { a.Shared = append(a.Shared, ir.Shared{Name: "C", Type: ir.TInt}) },
			`shared "C" declared twice`},
		{"local named like a register", func(a *ir.Algorithm) { a.Locals = append(a.Locals, ir.Local{Name: "TAIL", Type: ir.TInt}) },
			`local "TAIL" declared twice`},
		{"empty name", func(a *ir.Algorithm) { a.Locals = append(a.Locals, ir.Local{Type: ir.TInt}) },
			"local with an empty name"},
		{"field twice", func(a *ir.Algorithm) {
			a.Records[0].Fields = append(a.Records[0].Fields, ir.Field{Name: "next", Type: ir.TInt})
		}, `record Node: field "next" twice`},
		{"unknown record type", func(a *ir.Algorithm) { a.Shared[0].Type = ir.TRef("Qnode") },
			`reference to unknown record "Qnode"`},
		{"procs of an unknown record", func(a *ir.Algorithm) { a.Procs[0].Rec = "Qnode" },
			`procs q: unknown record "Qnode"`},
		{"procs count 0", func(a *ir.Algorithm) { a.Procs[0].Count = 0 },
			"procs q: count 0"},
		{"InitMine on a step local", func(a *ir.Algorithm) { a.Locals[0].Scope = ir.Step },
			"local me: InitMine needs a Process-scoped reference"},
		{"unknown register", func(a *ir.Algorithm) { a.Acquire[1] = Swap("2", "pred", Reg("TALE"), Var("me")) },
			`q.Acquire line 2: unknown shared register "TALE"`},
		{"unknown local", func(a *ir.Algorithm) { a.Acquire[1] = Swap("2", "prev", Reg("TAIL"), Var("me")) },
			`q.Acquire line 2: unknown local "prev"`},
		{"array read as a scalar", func(a *ir.Algorithm) { a.Acquire[0] = Write("1", Reg("F"), True) },
			"q.Acquire line 1: F: array/scalar mismatch"},
		{"field through a load", func(a *ir.Algorithm) {
			a.Acquire[0] = Write("1", Field(Read(Reg("TAIL")), "locked"), True)
		}, "field locked reached through a load"},
		{"field of an int", func(a *ir.Algorithm) { a.Acquire[0] = Write("1", Field(Var("t"), "locked"), True) },
			"field locked of non-reference int"},
		{"no such field", func(a *ir.Algorithm) { a.Acquire[0] = Write("1", Field(Var("me"), "lock"), True) },
			`record Node has no field "lock"`},
		{"write of the wrong type", func(a *ir.Algorithm) { a.Acquire[0] = Write("1", Elem("F", Self), Lit(1)) },
			"expression is int, want bool"},
		{"swap into a local of another type", func(a *ir.Algorithm) { a.Acquire[1] = Swap("2", "t", Reg("TAIL"), Var("me")) },
			"swap result t is int, location is *Node"},
		{"CAS result not bool", func(a *ir.Algorithm) { a.Release[1] = CAS("8", "t", Reg("TAIL"), Var("me"), Null) },
			"CAS result t must be bool"},
		{"fetch-and-add on a bool", func(a *ir.Algorithm) { a.Release[0] = FetchAdd("7", "t", Elem("F", Self), Lit(1)) },
			"fetch-and-add on bool"},
		{"fetch-and-add into a bool", func(a *ir.Algorithm) { a.Release[0] = FetchAdd("7", "ok", Reg("C"), Lit(1)) },
			"fetch-and-add result ok must be int"},
		{"loop variable shadows a local", func(a *ir.Algorithm) {
			a.Release[2] = For("9", "t", Lit(0), N, Write("10", Elem("F", Var("t")), False))
		}, "loop variable t shadows a local"},
		{"quantified variable shadows a local", func(a *ir.Algorithm) {
			a.Acquire[0] = Await("1", ForAll("t", Lit(0), N, Read(Elem("F", Var("t")))))
		}, "quantified variable t shadows a local"},
		{"comparing int with bool", func(a *ir.Algorithm) { a.Acquire[2] = If("3", Eq(Var("t"), Var("ok"))) },
			"comparing int with bool"},
		{"unknown per-process records", func(a *ir.Algorithm) { a.Acquire[1] = Swap("2", "pred", Reg("TAIL"), Own("r", Lit(0))) },
			`unknown per-process records "r"`},
		{"succeed in a release", func(a *ir.Algorithm) { a.Release = append(a.Release, Succeed("11")) },
			"q.Release line 11: Succeed outside an acquire"},
		{"fail in an acquire", func(a *ir.Algorithm) { a.Acquire = append(a.Acquire, Fail("7")) },
			"q.Acquire line 7: Fail outside a try-acquire"},
		{"delay without a duration", func(a *ir.Algorithm) { a.Acquire = append(a.Acquire, ir.Delay{At: ir.At{L: "7"}}) },
			"Delay needs a parameter or a duration, not both"},
		{"delay with both", func(a *ir.Algorithm) {
			a.Acquire = append(a.Acquire, ir.Delay{At: ir.At{L: "7"}, Param: "d", Dur: Lit(5)})
		}, "Delay needs a parameter or a duration, not both"},
		{"free of an int", func(a *ir.Algorithm) { a.Release = append(a.Release, Free("11", Var("t"))) },
			"FreeRecord of int"},
		{"send without messages", func(a *ir.Algorithm) { a.Release = append(a.Release, Send("11", Lit(0), "token")) },
			"send in a shared-memory algorithm"},
		{"start without messages", func(a *ir.Algorithm) { a.Start = Code(Set("s", "t", Lit(0))) },
			"a start sends the messages a network starts with: only for a message-passing algorithm"},
		{"doorway at an unknown line", func(a *ir.Algorithm) { a.DoorwayEnd = "9" },
			`DoorwayEnd "9" is not a label of Acquire`},
		{"missing expression", func(a *ir.Algorithm) { a.Acquire[0] = ir.Write{At: ir.At{L: "1"}, To: Elem("F", Self)} },
			"q.Acquire line 1: missing expression"},
	})
}

func TestCheckRejectsMessagePassing(t *testing.T) {
	runCheckCases(t, ring, []checkCase{
		{"shared memory", func(a *ir.Algorithm) { a.Shared = []ir.Shared{{Name: "X", Type: ir.TInt}} },
			"a message-passing algorithm shares no memory"},
		{"array local per step", func(a *ir.Algorithm) { a.Locals[2].Scope = ir.Step },
			"local seen: an array of a message-passing algorithm is process state with one element per process"},
		{"initial value reading state", func(a *ir.Algorithm) { a.Locals[1].InitSelf = Var("has") },
			"local want: initial value: has reads state: not a constant expression"},
		{"message twice", func(a *ir.Algorithm) { a.Messages = append(a.Messages, ir.Message{Name: "token"}) },
			`message "token" declared twice or unnamed`},
		{"bool parameter array", func(a *ir.Algorithm) { a.Messages[0].Params[1].Type = ir.TBool },
			"message token: array parameter ln has one int per process"},
		{"ref parameter", func(a *ir.Algorithm) { a.Messages[0].Params[0].Type = ir.TRef("Node") },
			"message token: parameter from is *Node (int or bool only)"},
		{"parameter shadows a local", func(a *ir.Algorithm) { a.Messages[0].Params[0].Name = "has" },
			"message token: parameter has shadows a local"},
		{"no handler", func(a *ir.Algorithm) { a.Handlers = nil },
			"message token has no handler"},
		{"handler of an undeclared message", func(a *ir.Algorithm) { a.Handlers = append(a.Handlers, On("ack")) },
			`handler of undeclared message "ack"`},
		{"await in a handler", func(a *ir.Algorithm) { a.Handlers[0].Code = append(a.Handlers[0].Code, Await("h2", Var("want"))) },
			"ring.on token line h2: a handler runs to completion: no await"},
		{"await in the start", func(a *ir.Algorithm) { a.Start = append(a.Start, Await("s2", Var("has"))) },
			"ring.start line s2: the start runs to completion: no await"},
		{"join at an unknown line", func(a *ir.Algorithm) { a.Joins[0].Label = "9" },
			"join at line 9: no such line"},
		{"await in a routine's for loop", func(a *ir.Algorithm) {
			a.Acquire = append(a.Acquire, For("6", "j", Lit(0), N, Await("7", Var("has"))))
		}, "ring.Acquire line 7: an await inside a for loop"},
		{"send of an undeclared message", func(a *ir.Algorithm) { a.Release[2] = Send("5", Self, "tokn", Self, Var("seen")) },
			`send of undeclared message "tokn"`},
		{"send with too few arguments", func(a *ir.Algorithm) { a.Release[2] = Send("5", Self, "token", Self) },
			"send token: 1 arguments, the message has 2"},
		{"array argument not a whole array", func(a *ir.Algorithm) { a.Release[2] = Send("5", Self, "token", Self, Self) },
			"send token: parameter ln is an array: its argument names a process's int array, whole"},
		{"scalar argument of the wrong type", func(a *ir.Algorithm) { a.Release[2] = Send("5", Self, "token", True, Var("seen")) },
			"ring.Release line 5: expression is bool, want int"},
	})
}
