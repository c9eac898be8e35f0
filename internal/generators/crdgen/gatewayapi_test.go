package crdgen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// gatewayAPI is the real project the schemas are compared on: a large, heavily tagged API that ships the
// CRDs controller-gen (run as a library by its tools/generator) made from it.
const gatewayAPI = "sigs.k8s.io/gateway-api@v1.6.3"

// TestSameSchemaAsControllerGen generates CRDs from gateway-api's apis/ and apisx/ and compares them,
// parsed, field by field with the experimental-channel CRDs the module ships. gateway-api's own generator
// adds to controller-gen's output from <gateway:...> comment markup (channel-specific rules, enums and
// patterns, description edits) and metadata annotations; those nodes are the only differences allowed.
func TestSameSchemaAsControllerGen(t *testing.T) {
	src := testmodule.Download(t, gatewayAPI)
	dir, importPath := testmodule.WorkDir(t, "github.com/kgen-dev/kgen/internal/generators/crdgen")
	for _, sub := range []string{"apis", "apisx"} {
		testmodule.CopyGoFiles(t, filepath.Join(src, sub), filepath.Join(dir, sub), "sigs.k8s.io/gateway-api/", importPath+"/")
	}
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.FromProgram(prog, prog.Packages, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := output.NewSet(crdgen.Generator)
	if err := crdgen.Generate(prog, prog.Packages, m, crdgen.Config{OutputDir: "out", MaxDescLen: -1}, set); err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Glob(filepath.Join(src, "config/crd/experimental/*_*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range want {
		if !strings.Contains(w, "_vap_") { // a ValidatingAdmissionPolicy, not a CRD
			names = append(names, filepath.Base(w))
		}
	}
	var got []string
	for _, p := range set.Paths() {
		got = append(got, filepath.Base(p))
	}
	if !slices.Equal(got, names) {
		t.Fatalf("files = %v\nwant %v", got, names)
	}
	compared := 0
	for _, name := range names {
		var ours, theirs map[string]any
		if err := yaml.Unmarshal(set.Content(filepath.Join("out", name)), &ours); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(src, "config/crd/experimental", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, &theirs); err != nil {
			t.Fatal(err)
		}
		c := &comparison{}
		c.compare(name+":spec", ours["spec"], theirs["spec"], false)
		for _, d := range c.diffs {
			t.Error(d)
		}
		compared += c.nodes
	}
	if compared < 5000 {
		t.Errorf("compared only %d schema values", compared)
	}
	t.Logf("%d CRDs, %d values compared", len(names), compared)
}

type comparison struct {
	diffs []string
	nodes int
}

// gatewayKeys are the schema keys gateway-api's generator changes through <gateway:...> markup.
var gatewayKeys = []string{"description", "x-kubernetes-validations", "enum", "pattern", "oneOf"}

// gatewayGenerated are schema values gateway-api's tools/generator writes itself, with no source in the
// Go types (the IP address formats of Gateway addresses).
var gatewayGenerated = []string{".addresses.items.oneOf"}

// compare walks both values; under is true inside a node whose doc carries gateway-api markup.
func (c *comparison) compare(path string, ours, theirs any, under bool) {
	c.nodes++
	om, ok1 := ours.(map[string]any)
	tm, ok2 := theirs.(map[string]any)
	if ok1 && ok2 {
		desc, _ := om["description"].(string)
		marked := strings.Contains(desc, "<gateway:")
		keys := map[string]bool{}
		for k := range om {
			keys[k] = true
		}
		for k := range tm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if marked && slices.Contains(gatewayKeys, k) {
				continue
			}
			o, inOurs := om[k]
			th, inTheirs := tm[k]
			switch {
			case !inOurs && slices.ContainsFunc(gatewayGenerated, func(g string) bool { return strings.HasSuffix(path+"."+k, g) }):
			case !inOurs:
				c.diffs = append(c.diffs, fmt.Sprintf("%s.%s: only controller-gen has %s", path, k, short(th)))
			case !inTheirs:
				c.diffs = append(c.diffs, fmt.Sprintf("%s.%s: only kgen has %s", path, k, short(o)))
			default:
				c.compare(path+"."+k, o, th, marked)
			}
		}
		return
	}
	ol, ok1 := ours.([]any)
	tl, ok2 := theirs.([]any)
	if ok1 && ok2 && len(ol) == len(tl) {
		for i := range ol {
			c.compare(fmt.Sprintf("%s[%d]", path, i), ol[i], tl[i], under)
		}
		return
	}
	if !reflect.DeepEqual(ours, theirs) {
		c.diffs = append(c.diffs, fmt.Sprintf("%s: kgen %s, controller-gen %s", path, short(ours), short(theirs)))
	}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
