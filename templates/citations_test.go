package templates

import (
	"reflect"
	"regexp"
	"testing"
)

// seedName matches what users must not read: the names of the project's
// seed files ("seed 003", "003_dcb6….txt", "the seed").
var seedName = regexp.MustCompile(`(?i)seed 00\d|\d{3}_[0-9a-f]{16}\.txt|\bthe seeds?\b|\bseeds'`)

// TestUserTextCitesPapers walks every string of every catalogue entry that
// reaches users (doc comments, lockgen explain, the catalogue) and requires
// papers to be cited by name, not by seed file.
func TestUserTextCitesPapers(t *testing.T) {
	for _, old := range []string{"(reference [1] of seed 000)", "seed 002_efe531114de1dbbc.txt, contents", "The seed has only the book's contents"} {
		if !seedName.MatchString(old) {
			t.Fatalf("the check would miss %q", old)
		}
	}
	for _, name := range Names() {
		e, _ := Lookup(name)
		for _, ref := range e.Refs {
			if s := ref.String(); seedName.MatchString(s) {
				t.Errorf("%s: reference %q names a seed file", name, s)
			}
		}
		walkStrings(reflect.ValueOf(*e), name, func(path, s string) {
			if seedName.MatchString(s) {
				t.Errorf("%s: %q names a seed file", path, s)
			}
		})
	}
	for seed := range Papers {
		if seedName.MatchString(Papers[seed]) {
			t.Errorf("the citation of %s names a seed file", seed)
		}
	}
}

// walkStrings calls f on every string reachable from v through structs,
// slices, arrays and maps, except a Ref's Seed (the developers' pointer).
func walkStrings(v reflect.Value, path string, f func(path, s string)) {
	switch v.Kind() {
	case reflect.String:
		f(path, v.String())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type() == reflect.TypeOf(Ref{}) && v.Type().Field(i).Name == "Seed" {
				continue
			}
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), path, f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkStrings(v.MapIndex(k), path, f)
		}
	}
}
