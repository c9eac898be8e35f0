package yamlemit

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
)

// TestJSONToYAMLSameBytes checks that JSONToYAML writes exactly what sigs.k8s.io/yaml's JSONToYAML
// writes for what json.Marshal writes (one value, non-ASCII as UTF-8 rather than surrogate escapes, which
// go-yaml rejects): on edge-case values, on random documents, and on the golden CRDs (read back to JSON).
func TestJSONToYAMLSameBytes(t *testing.T) {
	emitted := 0
	check := func(j []byte) {
		t.Helper()
		if v, ok := ParseJSON(j); ok {
			if _, ok := Emit(v); ok {
				emitted++
			}
		}
		want, wantErr := yaml.JSONToYAML(j)
		got, err := JSONToYAML(j)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, JSONToYAML's %v", j, err, wantErr)
		}
		if !bytes.Equal(got, want) {
			gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
			i := 0
			for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
				i++
			}
			from := max(i-3, 0)
			t.Fatalf("%.300s...: differs from line %d:\ngot\n%s\nwant\n%s", j, i+1,
				strings.Join(gl[from:min(i+3, len(gl))], "\n"), strings.Join(wl[from:min(i+3, len(wl))], "\n"))
		}
	}
	for _, j := range []string{
		`{}`, `[]`, `null`, `true`, `"x"`, `0`, `-1`, `1.5`, `1e3`, `1E-7`, `-0`, `0.0`, `123456789012345678901234567890`,
		`9223372036854775807`, `9223372036854775808`, `18446744073709551616`, `-9223372036854775809`, `1.7976931348623157e308`,
		`{"b":1,"a":[1,2.5,"3",{"x":null}],"a10":true,"a2":false,"A":{},"":[]}`,
		`{"s":["yes","no","on","off","~","null","1","0x1F","1_000","1:20","2001-12-14","0o17",".inf","-.Inf",".nan","<<","=","-","- x","? x",": x","#x","x #y","x: y","@x","` + "`x" + `","'","\"","|",">","%x","!x","&x","*x","[x]","{x}","x,y"," lead","trail ","a\nb","a\n","\nb","tab\there","\u00e9\u4e16😀","\u2028","\u0007","\ufeff","a  b","x\u00a0y"]}`,
		`{"long":"` + strings.Repeat("word ", 40) + `","longnl":"` + strings.Repeat("word ", 30) + `\n` + strings.Repeat("more words ", 20) + `\n\n  indented\n"}`,
		`{"a":`, `[1,2`,
	} {
		check([]byte(j))
	}
	// handled holds the characters Emit writes itself; all adds those it leaves to go-yaml. (A raw
	// U+0085, which json.Marshal does not escape, is left out: JSONToYAML's parser folds it into a space.)
	handled := []string{"a", "b1", "10", "-", ":", "#", " ", "\n", "\t", "'", "\"", "true", "null", "1.5", "é", "x: y", "  ", "long-word-without-spaces-in-it",
		" ", " ", " ", "word", "words", "\\", "\n", "- ", "? ", "[", "{", ",", "|", ">", "*", "&", "!", "%", "@", "`", "0", "0x1", "y", "on", "~", "...", "---",
		"世界", "\u00a0", "Ω"}
	all := append([]string{"\u2028", "😀", "\x01", "\r", "\ufeff"}, handled...)
	var keyWords []string // without newlines: go-yaml writes a key with one as a complex key
	for _, w := range handled {
		if !strings.Contains(w, "\n") {
			keyWords = append(keyWords, w)
		}
	}
	words, keys := all, all
	rng := rand.New(rand.NewSource(1))
	var value func(depth int) any
	value = func(depth int) any {
		switch n := rng.Intn(8); {
		case n < 2 && depth < 4:
			m := map[string]any{}
			for range rng.Intn(5) {
				m[randString(rng, keys, 3)] = value(depth + 1)
			}
			return m
		case n < 3 && depth < 4:
			var l []any
			for range rng.Intn(4) {
				l = append(l, value(depth+1))
			}
			return l
		case n == 3:
			return rng.NormFloat64() * 1e6
		case n == 4:
			return rng.Int63() - rng.Int63()
		default:
			return randString(rng, words, 30)
		}
	}
	for i := range 2000 {
		words, keys = all, all
		if i%2 == 0 {
			words, keys = handled, keyWords
		}
		v := value(0)
		if i%2 == 0 {
			// A mapping at the root, as a CRD is, with long strings and deep nesting.
			m := map[string]any{"k": v, "long": randString(rng, words, 120), "z": []any{randString(rng, words, 200), map[string]any{"a": randString(rng, words, 200)}}}
			deep := m
			for d := range rng.Intn(50) {
				next := map[string]any{randString(rng, keys, 3): randString(rng, words, 60)}
				if d%3 == 0 {
					deep[randString(rng, keys, 2)+"x"] = []any{next, []any{randString(rng, words, 100)}}
				} else {
					deep[randString(rng, keys, 2)+"y"] = next
				}
				deep = next
			}
			v = m
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		check(j)
	}
	golden, _ := filepath.Glob("../../crdgen/testdata/golden/*.yaml")
	gateway, _ := filepath.Glob(filepath.Join(testmodule.Download(t, "sigs.k8s.io/gateway-api@v1.6.3"), "config/crd/*/*.yaml"))
	golden = append(golden, gateway...)
	for _, name := range golden {
		y, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			t.Fatal(err)
		}
		check(j)
	}
	t.Logf("Emit wrote %d documents", emitted)
	if emitted < 1000+len(golden) {
		t.Errorf("Emit wrote %d of the documents, want at least the random mappings and the CRDs", emitted)
	}
}

func randString(rng *rand.Rand, words []string, n int) string {
	var b strings.Builder
	for range rng.Intn(n) {
		b.WriteString(words[rng.Intn(len(words))])
	}
	return b.String()
}
