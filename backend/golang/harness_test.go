package golang

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

func TestParseOption(t *testing.T) {
	for src, want := range map[string]string{
		"verify.ExploreDFS(3)":                     "verify.ExploreDFS(3)",
		"verify.ExploreBudget(5*time.Minute)":      "verify.ExploreBudget(5 * time.Minute)",
		"verify.ExplorePCT(1000000, 5)":            "verify.ExplorePCT(1000000, 5)",
		"verify.ExploreReplay(\"r:1:2\")":          "verify.ExploreReplay(\"r:1:2\")",
		"verify.StressTimeout(-(2 * time.Second))": "verify.StressTimeout(-(2 * time.Second))",
	} {
		code, err := ParseOption(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		f := jen.NewFile("p")
		f.Var().Id("_").Op("=").Add(code)
		var b bytes.Buffer
		if err := f.Render(&b); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s rendered as\n%s\nwant %s", src, b.String(), want)
		}
	}
	for _, src := range []string{"os.Exit(1)", "verify.ExploreDFS(x)", "3", "verify.ExploreDFS(func() int { return 3 }())", "verify.ExploreDFS("} {
		if _, err := ParseOption(src); err == nil {
			t.Errorf("%s: accepted", src)
		}
	}
}

func TestHarnessFiles(t *testing.T) {
	files, err := Harness("p", "a test", []HarnessTest{
		{Name: "TestAStress", Lock: "A", Layer: LayerStress},
		{Name: "TestAExplore", Lock: "A", Layer: LayerExplore, NoFIFO: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("%d files, want 2", len(files))
	}
	stress, explore := string(files[0].Data), string(files[1].Data)
	if !strings.Contains(stress, "harness.Stress(t, aSubject())") || strings.Contains(stress, "go:build") {
		t.Errorf("stress file:\n%s", stress)
	}
	if !strings.HasPrefix(explore, "//go:build lockgen_check") || !strings.Contains(explore, "harness.Explore(t, harness.NoFIFO(aSubject()))") {
		t.Errorf("explore file:\n%s", explore)
	}
	only, err := Harness("p", "a test", []HarnessTest{{Name: "TestAStress", Lock: "A", Layer: LayerStress}})
	if err != nil || len(only) != 1 || only[0].Name != "lockgen_harness_test.go" {
		t.Errorf("stress only: %v %v", only, err)
	}
}
