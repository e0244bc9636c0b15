package spec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// lockKey is the key path of key in the i-th [[lock]].
func lockKey(i int, key ...string) string {
	p := elemPath(keyPath("", "lock"), i)
	for _, k := range key {
		p = keyPath(p, k)
	}
	return p
}

func TestScanKeys(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string]string // path -> "line:col"
	}{
		{
			name: "plain",
			src:  "[[lock]]\nname = \"A\"\n  k   =  3\n[[lock]]\n\tnodes=\"x\"\n",
			want: map[string]string{
				lockKey(0): "1:1", lockKey(0, "name"): "2:1", lockKey(0, "k"): "3:3",
				lockKey(1): "4:1", lockKey(1, "nodes"): "5:2",
				keyPath("", "lock"): "1:1",
			},
		},
		{
			name: "quoted and escaped keys",
			src:  "[[lock]]\n\"nodez\" = 1\n'lit.key' = 2\n\"no\\u0064ey\" = 3\n\"a\\\"b\" = 4\n",
			want: map[string]string{
				lockKey(0, "nodez"): "2:1", lockKey(0, "lit.key"): "3:1", lockKey(0, "nodey"): "4:1", lockKey(0, `a"b`): "5:1",
			},
		},
		{
			name: "dotted keys",
			src:  "[[lock]]\nnodes . x = 1\n\"a\".'b'.c = 2\n",
			want: map[string]string{
				lockKey(0, "nodes"): "2:1", lockKey(0, "nodes", "x"): "2:9",
				lockKey(0, "a"): "3:1", lockKey(0, "a", "b"): "3:5", lockKey(0, "a", "b", "c"): "3:9",
			},
		},
		{
			name: "inline tables and arrays",
			src:  "[[lock]]\nopts = { a = 1, b = { c = \"}\" } }\nxs = [ 1, # ]\n  { d = 2 }, [3, 4],\n]\nafter = 1\n",
			want: map[string]string{
				lockKey(0, "opts"): "2:1", lockKey(0, "opts", "a"): "2:10", lockKey(0, "opts", "b", "c"): "2:23",
				elemPath(lockKey(0, "xs"), 1) + `."d"`: "4:5",
				lockKey(0, "after"):                    "6:1",
			},
		},
		{
			name: "multi-line strings hide keys and headers",
			src:  "[[lock]]\nname = \"\"\"\nfoo = 1\n[[lock]]\n\\\"\"\" \"\"\"\"\nlit = '''\n[x]\n''''\nnodez = 1\n",
			want: map[string]string{
				lockKey(0, "name"): "2:1", lockKey(0, "lit"): "6:1", lockKey(0, "nodez"): "9:1",
			},
		},
		{
			name: "strings and comments with markers",
			src:  "# [[lock]]\n[[lock]] # [x]\nname = \"a#b=c\" # k = 1\nwait = 'x\\' # c\nspin = 1\n",
			want: map[string]string{
				lockKey(0): "2:1", lockKey(0, "name"): "3:1", lockKey(0, "wait"): "4:1", lockKey(0, "spin"): "5:1",
			},
		},
		{
			name: "sub-tables of array elements",
			src:  "[[lock]]\na = 1\n[lock.extra]\nb = 2\n[[lock]]\n[ lock . extra ]\n[[lock.sub]]\nc = 3\n[[lock.sub]]\nd = 4\n",
			want: map[string]string{
				lockKey(0, "extra"): "3:1", lockKey(0, "extra", "b"): "4:1",
				lockKey(1): "5:1", lockKey(1, "extra"): "6:1",
				elemPath(lockKey(1, "sub"), 0): "7:1", elemPath(lockKey(1, "sub"), 1) + `."d"`: "10:1",
			},
		},
		{
			name: "CRLF and dates",
			src:  "[[lock]]\r\nwhen = 1979-05-27 07:32:00Z\r\nk = 3\r\n",
			want: map[string]string{lockKey(0, "when"): "2:1", lockKey(0, "k"): "3:1"},
		},
		{
			name: "top level before the first header",
			src:  "lock = 1\nname = \"x\"\n",
			want: map[string]string{keyPath("", "lock"): "1:1", keyPath("", "name"): "2:1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if _, err := toml.Decode(tt.src, &m); err != nil {
				t.Fatalf("test input is not TOML: %v", err)
			}
			idx, deep := scanKeys(tt.src)
			if deep != nil {
				t.Fatalf("too deep at %v", *deep)
			}
			for path, want := range tt.want {
				p, ok := idx[path]
				if !ok {
					t.Errorf("%s: not found; have %v", path, keysOf(idx))
					continue
				}
				if got := fmt.Sprintf("%d:%d", p.line, p.col); got != want {
					t.Errorf("%s at %s, want %s", path, got, want)
				}
			}
		})
	}
}

func keysOf(idx keyIndex) string {
	var ks []string
	for k, p := range idx {
		ks = append(ks, fmt.Sprintf("%s@%d:%d", k, p.line, p.col))
	}
	return strings.Join(ks, " ")
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:            "plain",
		`a\tb\n`:           "a\tb\n",
		`\u00e9\U0001F600`: "é😀",
		`\x41\e`:           "A\x1b",
		`\"\\`:             `"\`,
		`\q`:               `\q`,
		`\u12`:             `\u12`,
		`end\`:             `end\`,
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
