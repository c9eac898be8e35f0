package crdgen

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestJSONToYAMLSameBytes checks that jsonToYAML writes exactly what sigs.k8s.io/yaml's JSONToYAML
// writes for what json.Marshal writes (one value, non-ASCII as UTF-8 rather than surrogate escapes, which
// go-yaml rejects): on edge-case values, on random documents, and on the golden CRDs (read back to JSON).
func TestJSONToYAMLSameBytes(t *testing.T) {
	check := func(j []byte) {
		t.Helper()
		want, wantErr := yaml.JSONToYAML(j)
		got, err := jsonToYAML(j)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, JSONToYAML's %v", j, err, wantErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\ngot\n%s\nwant\n%s", j, got, want)
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
	words := []string{"a", "b1", "10", "-", ":", "#", " ", "\n", "\t", "'", "\"", "true", "null", "1.5", "é", "x: y", "  ", "long-word-without-spaces-in-it"}
	rng := rand.New(rand.NewSource(1))
	var value func(depth int) any
	value = func(depth int) any {
		switch n := rng.Intn(8); {
		case n < 2 && depth < 4:
			m := map[string]any{}
			for range rng.Intn(5) {
				m[randString(rng, words, 3)] = value(depth + 1)
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
	for range 2000 {
		j, err := json.Marshal(value(0))
		if err != nil {
			t.Fatal(err)
		}
		check(j)
	}
	golden, _ := filepath.Glob("testdata/golden/*.yaml")
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
}

func randString(rng *rand.Rand, words []string, n int) string {
	var b strings.Builder
	for range rng.Intn(n) {
		b.WriteString(words[rng.Intn(len(words))])
	}
	return b.String()
}
