package ir_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

// kinds names each expression's dynamic type, in order.
func kinds(es []ir.Expr) string {
	var out []string
	for _, e := range es {
		out = append(out, strings.TrimPrefix(fmt.Sprintf("%T", e), "ir."))
	}
	return strings.Join(out, " ")
}

func TestWalkExprVisitsParentsFirst(t *testing.T) {
	e := Plus(Read(Elem("A", Var("j"))), Read(Field(Own("q", Lit(0)), "next")))
	var seen []ir.Expr
	ir.WalkExpr(e, func(x ir.Expr) { seen = append(seen, x) })
	if got, want := kinds(seen), "Bin Load LocalRef Load Mine Const"; got != want {
		t.Errorf("WalkExpr visited %s, want %s", got, want)
	}
	if !ir.HasLoad(e) || ir.HasLoad(Plus(Var("j"), Self)) {
		t.Error("HasLoad is wrong")
	}
	locs := ir.Loads(e)
	if len(locs) != 2 || ir.FormatLoc(locs[0]) != "A[j]" || ir.FormatLoc(locs[1]) != "&q_i[0].next" {
		t.Errorf("Loads = %v", locs)
	}
}

func TestWalkStmtsVisitsEveryStatement(t *testing.T) {
	a := queue()
	var labels []string
	for _, op := range a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) { labels = append(labels, op.Name+":"+s.Label()) })
	}
	want := "Acquire:1 Acquire:2 Acquire:3 Acquire:4 Acquire:5 Acquire:6 Release:7 Release:8 Release:9 Release:10 TryAcquire:t1 TryAcquire:t2 TryAcquire:t2 TryAcquire:t3"
	if got := strings.Join(labels, " "); got != want {
		t.Errorf("WalkStmts visited\n%s\nwant\n%s", got, want)
	}
}

func TestStmtExprs(t *testing.T) {
	for _, c := range []struct {
		s    ir.Stmt
		want string
	}{
		{Write("1", Elem("F", Self), True), "i true"},
		{Write("1", Reg("L"), Lit(0)), "0"},
		{CAS("1", "ok", Field(Var("pred"), "next"), Null, Var("me")), "pred ⊥ me"},
		{FetchAdd("1", "t", Reg("C"), Lit(1)), "1"},
		{SetAt("1", "v", Self, Lit(2)), "i 2"},
		{For("1", "j", Lit(0), N, Write("2", Reg("L"), Lit(9))), "0 n"},
		{Repeat("1", Var("ok"), Write("2", Reg("L"), Lit(9))), "ok"},
		{Send("1", Lit(0), "req", Self, True), "0 i true"},
		{Delay("1", "delta"), ""},
		{DelayFor("1", Lit(5)), "5"},
		{Succeed("1"), ""},
	} {
		var got []string
		for _, e := range ir.StmtExprs(c.s) {
			got = append(got, ir.FormatExpr(e))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("StmtExprs(%s) = %q, want %q", ir.FormatHead(c.s), got, c.want)
		}
	}
}

func TestWrittenLocAndLocKey(t *testing.T) {
	a := queue()
	for _, c := range []struct {
		s       ir.Stmt
		written string // "" when s writes nothing shared
	}{
		{a.Acquire[0], "F"},
		{a.Acquire[1], "TAIL"},
		{a.Acquire[2].(ir.If).Then[1], "Node.next"},
		{a.Release[0], "C"},
		{a.Release[1], "TAIL"},
		{a.Release[2], ""},
		{Set("x", "t", Lit(1)), ""},
	} {
		got := ""
		if l := ir.WrittenLoc(c.s); l != nil {
			got = a.LocKey(l)
		}
		if got != c.written {
			t.Errorf("%s writes %q, want %q", ir.FormatHead(c.s), got, c.written)
		}
	}
	if got := a.RefRecord(Own("q", Lit(0))); got != "Node" {
		t.Errorf("RefRecord(&q_i[0]) = %q, want Node", got)
	}
	if got := a.RefRecord(Var("t")); got != "" {
		t.Errorf("RefRecord(t) = %q, want none", got)
	}
}

func TestOpsAndLookups(t *testing.T) {
	a := queue()
	var names []string
	for _, op := range a.Ops() {
		names = append(names, op.Name)
	}
	if got := strings.Join(names, " "); got != "Acquire Release TryAcquire" {
		t.Errorf("Ops = %s", got)
	}
	if a.SharedVar("F") == nil || !a.SharedVar("F").IsArray() || a.SharedVar("TAIL").IsArray() || a.SharedVar("G") != nil {
		t.Error("SharedVar is wrong")
	}
	if a.Record("Node").Field("next").Type != ir.TRef("Node") || a.Record("Node").Field("prev") != nil || a.Record("Qnode") != nil {
		t.Error("Record/Field is wrong")
	}
	if a.LocalVar("pred") == nil || a.LocalVar("j") != nil || a.ProcRecs("q").Rec != "Node" || a.ProcRecs("r") != nil {
		t.Error("LocalVar/ProcRecs is wrong")
	}
	if got := fmt.Sprint(ir.TInt, ir.TBool, ir.TRef("Node")); got != "int bool *Node" {
		t.Errorf("types print as %s", got)
	}
}

func TestEndsDoorway(t *testing.T) {
	a := queue()
	if !a.EndsDoorway(a.Acquire[1]) || a.EndsDoorway(a.Acquire[0]) {
		t.Error("the doorway ends at line 2 only")
	}
	// A loop carrying the doorway's label does not end it.
	a.DoorwayEnd = "3"
	if a.EndsDoorway(a.Acquire[2]) {
		t.Error("an if ends the doorway")
	}
	a.DoorwayEnd = ""
	if a.EndsDoorway(a.Acquire[1]) {
		t.Error("no doorway, yet line 2 ends it")
	}
}

func TestParamsGet(t *testing.T) {
	p := ir.Params{N: 4, K: 2, Extra: map[string]int64{"m": 11}}
	got := []int64{p.Get("n"), p.Get("k"), p.Get("m"), p.Get("d")}
	if !reflect.DeepEqual(got, []int64{4, 2, 11, 0}) {
		t.Errorf("Get n, k, m, d = %v", got)
	}
}
