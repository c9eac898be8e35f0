package fidelity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestLoadAndCompare(t *testing.T) {
	want, err := Load(writeTree(t, map[string]string{"a/a.go": `package a
import old "example.com/old/rest"
type Getter interface { Get(name string) (*old.Result, error); List() []string }
type S struct { Field old.Config; hidden int }
func New(c *old.Config) *S { return nil }
func (s *S) Do() {}
const Name = "a"
`}), func(p string) string { return strings.Replace(p, "example.com/old", "example.com/new", 1) })
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load(writeTree(t, map[string]string{"a/a.go": `package a
import rest "example.com/new/rest"
type lister interface { List() []string }
type Getter interface { lister; Get(name string) (*rest.Result, error) }
type S struct { Field rest.Config }
func New(c *rest.Config) *S { return nil }
func (s S) Do() {}
var Extra int
`}), func(p string) string { return p })
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(want, got)
	wantDevs := []string{
		"differs a.S.Do: func(), want (*) func()",
		"extra a.Extra var int",
		`missing a.Name const`,
	}
	if strings.Join(c.Deviations, "\n") != strings.Join(wantDevs, "\n") || c.Total != 8 || c.Matched != 6 {
		t.Fatalf("Compare = %d of %d, deviations:\n%s", c.Matched, c.Total, strings.Join(c.Deviations, "\n"))
	}
	if p := c.Percent(); p != 75 {
		t.Fatalf("Percent = %v", p)
	}
}

func TestResolveAliases(t *testing.T) {
	decls := API{"informers.Options": "type struct", "informers.Options.Resync": `"time".Duration`}
	api := API{
		"gen.Options": `type = "example.com/runtime/informers".Options`,
		"gen.Other":   `type = "example.com/elsewhere".Options`,
	}
	api.ResolveAliases(decls, func(p string) string {
		if dir, ok := strings.CutPrefix(p, "example.com/runtime/"); ok {
			return dir
		}
		return ""
	})
	if api["gen.Options"] != "type struct" || api["gen.Options.Resync"] != `"time".Duration` || api["gen.Other"] != `type = "example.com/elsewhere".Options` {
		t.Fatalf("ResolveAliases = %v", api)
	}
}
