package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

// TestEveryEntryPointReadsTypesOtherToolsGenerated runs each single-purpose generator on a package whose
// types sit in a file another tool generated (kubetype-gen's marker, as istio.io/client-go ships) and
// checks that each one generates for them.
func TestEveryEntryPointReadsTypesOtherToolsGenerated(t *testing.T) {
	const pkg = "./testdata/kubetypegen/things/v1"
	for _, tc := range []struct {
		name string
		run  func(out string, stdout, stderr *bytes.Buffer) error
		file string // the file the Thing type yields, under out ("" for deepcopy-gen's --verify diff)
		want string
	}{
		{"deepcopy-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.DeepCopyGen([]string{"--output-file", "zz_generated.deepcopy.go", "--verify", pkg}, o, e)
		}, "", "func (in *Thing) DeepCopyInto(out *Thing) {"},
		{"register-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.RegisterGen([]string{"--output-file", "zz_generated.register.go", "--verify", pkg}, o, e)
		}, "", "&Thing{},"},
		{"applyconfiguration-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac", pkg}, o, e)
		}, "things/v1/thing.go", "func ExtractThing("},
		{"client-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.ClientGen([]string{"--output-dir", out, "--output-pkg", "example.com/cs", "--input-base", "./testdata/kubetypegen", "--input", "things/v1"}, o, e)
		}, "internalclientset/typed/things/v1/thing.go", "func newThings("},
		{"lister-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.ListerGen([]string{"--output-dir", out, "--output-pkg", "example.com/l", pkg}, o, e)
		}, "things/v1/thing.go", "func NewThingLister("},
		{"informer-gen", func(out string, o, e *bytes.Buffer) error {
			return cli.InformerGen([]string{"--output-dir", out, "--output-pkg", "example.com/i", "--versioned-clientset-package", "example.com/cs/versioned",
				"--listers-package", "example.com/l", pkg}, o, e)
		}, "externalversions/things/v1/thing.go", "func NewThingInformer("},
	} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		err := tc.run(out, &stdout, &stderr)
		got := stdout.String() // deepcopy-gen and register-gen --verify print what they would write
		if tc.file != "" {
			if err != nil {
				t.Errorf("%s: %v\n%s", tc.name, err, stderr.String())
				continue
			}
			b, rerr := os.ReadFile(filepath.Join(out, tc.file))
			if rerr != nil {
				t.Errorf("%s: %v", tc.name, rerr)
				continue
			}
			got = string(b)
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: output lacks %q (err %v)\n%s", tc.name, tc.want, err, stderr.String())
		}
	}
}
