package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

const outPkg = "example.com/out"

func runClientGen(t *testing.T, extra ...string) string {
	t.Helper()
	t.Chdir("../../../testdata")
	out := t.TempDir()
	args := append([]string{"--output-dir", out, "--output-pkg", outPkg, "--clientset-name", "versioned",
		"--input-base", "./apis", "--input", "example/v1,example2/v1"}, extra...)
	var stdout, stderr bytes.Buffer
	if err := cli.ClientGen(args, &stdout, &stderr); err != nil {
		t.Fatalf("client-gen: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "generated ") {
		t.Fatalf("no summary line: %q", stderr.String())
	}
	return filepath.Join(out, "versioned")
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestClientGenApplyAndProtobuf(t *testing.T) {
	cs := runClientGen(t, "--apply-configuration-package", "example.com/ac", "--prefers-protobuf")
	typed := read(t, filepath.Join(cs, "typed", "example", "v1", "testtype.go"))
	for _, want := range []string{
		"Apply(ctx context.Context, testType *acexamplev1.TestTypeApplyConfiguration, opts metav1.ApplyOptions) (result *examplev1.TestType, err error)",
		"ApplyStatus(ctx context.Context, testType *acexamplev1.TestTypeApplyConfiguration",
		"gentype.ClientWithListAndApply[*examplev1.TestType, *examplev1.TestTypeList, *acexamplev1.TestTypeApplyConfiguration]",
		"gentype.PrefersProtobuf[*examplev1.TestType]()",
		"UseProtobufAsDefault()",
		`acexamplev1 "example.com/ac/example/v1"`,
	} {
		if !strings.Contains(typed, want) {
			t.Errorf("typed client lacks %q", want)
		}
	}
	fake := read(t, filepath.Join(cs, "fake", "clientset_generated.go"))
	if !strings.Contains(fake, "func NewClientset(objects ...runtime.Object) *Clientset") || !strings.Contains(fake, "ac.NewTypeConverter(scheme)") {
		t.Errorf("fake clientset lacks NewClientset with the field-managed tracker:\n%s", fake)
	}
	// Types whose verbs exclude apply keep the plain helper.
	widget := read(t, filepath.Join(cs, "typed", "example2", "v1", "widget.go"))
	if strings.Contains(widget, "Apply(") || !strings.Contains(widget, "gentype.ClientWithList[") {
		t.Errorf("onlyVerbs type got apply verbs:\n%s", widget)
	}
}

func TestClientGenWithoutApplyHasNoApply(t *testing.T) {
	cs := runClientGen(t)
	typed := read(t, filepath.Join(cs, "typed", "example", "v1", "testtype.go"))
	if strings.Contains(typed, "Apply") || strings.Contains(typed, "Protobuf") {
		t.Errorf("apply or protobuf code without the flags")
	}
	if fake := read(t, filepath.Join(cs, "fake", "clientset_generated.go")); strings.Contains(fake, "func NewClientset(") {
		t.Errorf("NewClientset without apply configurations")
	}
}

func TestClientGenClientsetOnlyAndNoFake(t *testing.T) {
	cs := runClientGen(t, "--clientset-only", "--fake-clientset=false")
	if !exists(filepath.Join(cs, "clientset.go")) || !exists(filepath.Join(cs, "scheme", "register.go")) {
		t.Fatal("clientset shell missing")
	}
	if exists(filepath.Join(cs, "typed")) || exists(filepath.Join(cs, "fake")) {
		t.Fatal("typed clients or fakes generated with --clientset-only --fake-clientset=false")
	}
}

func TestClientGenIncludedTypesOverrides(t *testing.T) {
	cs := runClientGen(t, "--included-types-overrides", "example/v1/Report,example2/Widget")
	if !exists(filepath.Join(cs, "typed", "example", "v1", "report.go")) {
		t.Error("override did not include Report (which has no +genclient)")
	}
	if exists(filepath.Join(cs, "typed", "example", "v1", "testtype.go")) {
		t.Error("override did not restrict example/v1 to the listed types")
	}
	if !exists(filepath.Join(cs, "typed", "example2", "v1", "widget.go")) || exists(filepath.Join(cs, "typed", "example2", "v1", "gadget.go")) {
		t.Error("group-wide override did not restrict example2 to Widget")
	}
}

func TestInformerGenSingleDirectory(t *testing.T) {
	t.Chdir("../../../testdata")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := cli.InformerGen([]string{"--output-dir", out, "--output-pkg", outPkg + "/informers", "--single-directory",
		"--versioned-clientset-package", outPkg + "/versioned", "--listers-package", outPkg + "/listers", "./apis/example2/..."}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	factory := read(t, filepath.Join(out, "factory.go"))
	if !strings.Contains(factory, "package informers\n") || exists(filepath.Join(out, "externalversions")) {
		t.Fatal("--single-directory did not place the factory in the output directory")
	}
	if !exists(filepath.Join(out, "example2", "v1", "gadget.go")) || exists(filepath.Join(out, "example2", "v1", "marker.go")) {
		t.Fatal("informers: want Gadget, and no informer for the noVerbs Marker")
	}
}

func TestRequiredFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	for name, run := range map[string]func() error{
		"client-gen": func() error { return cli.ClientGen([]string{"--output-pkg", "x", "--input", "a/v1"}, &stdout, &stderr) },
		"lister-gen": func() error {
			return cli.ListerGen([]string{"--output-dir", "x", "--output-pkg", "x"}, &stdout, &stderr)
		},
		"informer-gen": func() error {
			return cli.InformerGen([]string{"--output-dir", "x", "--output-pkg", "x", "./..."}, &stdout, &stderr)
		},
		"plurals": func() error {
			return cli.ListerGen([]string{"--output-dir", "x", "--output-pkg", "x", "--plural-exceptions", "Bad", "./..."}, &stdout, &stderr)
		},
		"crd-gen": func() error { return cli.CRDGen([]string{"./..."}, &stdout, &stderr) },
		"crd-gen packages": func() error {
			return cli.CRDGen([]string{"--output-dir", "x"}, &stdout, &stderr)
		},
	} {
		if err := run(); err == nil {
			t.Errorf("%s accepted missing or malformed flags", name)
		}
	}
}

func TestVerifyFailsOnDifference(t *testing.T) {
	t.Chdir("../../../testdata")
	out := t.TempDir()
	args := []string{"--output-dir", out, "--output-pkg", outPkg, "./apis/example2/..."}
	var stdout, stderr bytes.Buffer
	if err := cli.ListerGen(append(args, "--verify"), &stdout, &stderr); err == nil {
		t.Fatal("--verify passed on an empty output directory")
	}
	if !strings.Contains(stdout.String(), "+++ b/"+filepath.Join(out, "example2", "v1", "widget.go")) {
		t.Fatalf("--verify printed no diff:\n%s", stdout.String())
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatal("--verify wrote files")
	}
	if err := cli.ListerGen(args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if err := cli.ListerGen(append(args, "--verify"), &stdout, &stderr); err != nil {
		t.Fatalf("--verify after generating: %v", err)
	}
}

func TestClientGenAcceptsClientsetPathForOutputPkg(t *testing.T) {
	t.Chdir("../../../testdata")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"--output-dir", out, "--clientset-path", outPkg, "--clientset-name", "versioned",
		"--input-base", "./apis", "--input", "example2/v1"}
	if err := cli.ClientGen(args, &stdout, &stderr); err != nil {
		t.Fatalf("client-gen: %v\n%s", err, stderr.String())
	}
	if cs := read(t, filepath.Join(out, "versioned", "clientset.go")); !strings.Contains(cs, `"`+outPkg+`/versioned/typed/example2/v1"`) {
		t.Fatalf("clientset does not import from --clientset-path:\n%s", cs)
	}
}

func TestLintRules(t *testing.T) {
	runClientGen(t, "--lint-rules", "known-tags-only,require-explicit-disablement") // and stays in testdata
	var stdout, stderr bytes.Buffer
	base := []string{"--output-dir", t.TempDir(), "--output-pkg", outPkg}
	if err := cli.ListerGen(append(base, "--lint-rules", "known-tags-only,no-such-rule", "./apis/example2/..."), &stdout, &stderr); err == nil ||
		!strings.Contains(err.Error(), "unrecognized rule in --lint-rules: no-such-rule") {
		t.Fatalf("an unknown lint rule: %v", err)
	}
	for name, run := range map[string]func([]string, *bytes.Buffer, *bytes.Buffer) error{
		"lister-gen": func(args []string, o, e *bytes.Buffer) error { return cli.ListerGen(args, o, e) },
		"informer-gen": func(args []string, o, e *bytes.Buffer) error {
			return cli.InformerGen(append(args, "--versioned-clientset-package", outPkg+"/versioned", "--listers-package", outPkg+"/listers"), o, e)
		},
	} {
		if err := run(append(base, "--lint-rules", "known-tags-only,require-explicit-disablement", "./apis/..."), &stdout, &stderr); err != nil {
			t.Errorf("%s: testdata's API packages fail the lint rules: %v", name, err)
		}
	}
}

// code-generator's lister-gen ignores +genclient:noVerbs (client-go ships EvictionLister); informer-gen
// skips such types (TestInformerGenSingleDirectory).
func TestListerGenListsNoVerbsTypes(t *testing.T) {
	t.Chdir("../../../testdata")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cli.ListerGen([]string{"--output-dir", out, "--output-pkg", outPkg, "./apis/example2/..."}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if marker := read(t, filepath.Join(out, "example2", "v1", "marker.go")); !strings.Contains(marker, "type MarkerLister interface {") {
		t.Fatalf("no lister for the noVerbs Marker:\n%s", marker)
	}
}

// TestCRDGen writes the CRDs of a package, names the file after group and plural, and verifies them.
func TestCRDGen(t *testing.T) {
	t.Chdir("../../../testdata")
	out := t.TempDir()
	args := []string{"--output-dir", out, "--plural-exceptions", "Fish:Fish", "--max-description-length", "0", "./apis/example2/..."}
	var stdout, stderr bytes.Buffer
	if err := cli.CRDGen(args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	fish := read(t, filepath.Join(out, "example2.kgen.dev_fish.yaml"))
	if !strings.HasPrefix(fish, "# Code generated by crd-gen. DO NOT EDIT.\n---\n") || !strings.Contains(fish, "scope: Cluster") ||
		strings.Contains(fish, "description:") {
		t.Fatalf("fish CRD:\n%s", fish)
	}
	if err := cli.CRDGen(append(args, "--verify"), &stdout, &stderr); err != nil {
		t.Fatalf("--verify after a run: %v", err)
	}
}

// TestCRDGenAllowDangerousTypes: a float64 field is an error by default and type number with
// --allow-dangerous-types.
func TestCRDGenAllowDangerousTypes(t *testing.T) {
	t.Chdir("../crdgen/testdata/bad/float")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cli.CRDGen([]string{"--output-dir", out, "./..."}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "--allow-dangerous-types") {
		t.Fatalf("float64 without --allow-dangerous-types: %v", err)
	}
	if err := cli.CRDGen([]string{"--output-dir", out, "--allow-dangerous-types", "./..."}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	if len(files) != 1 || !regexp.MustCompile(`\n( +)f:\n +type: number\n`).MatchString(read(t, files[0])) {
		t.Fatalf("CRDs %v:\n%s", files, read(t, files[0]))
	}
}

// TestCRDGenEmbeddedObjectMeta: --generate-embedded-object-meta gives a pod template's metadata its fields.
func TestCRDGenEmbeddedObjectMeta(t *testing.T) {
	t.Chdir("../crdgen/testdata/apis")
	for _, flag := range []string{"", "--generate-embedded-object-meta"} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		args := []string{"--output-dir", out, "--max-description-length", "0", "--conversion-service", "shop-system/shop-webhook:9443", "./shop/..."}
		if flag != "" {
			args = append(args, flag)
		}
		if err := cli.CRDGen(args, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		if got := strings.Contains(read(t, filepath.Join(out, "shop.example.com_widgets.yaml")), "finalizers:"); got != (flag != "") {
			t.Errorf("crd-gen %s: template metadata with fields %v", flag, got)
		}
	}
}

// TestCRDGenConversionFlags: --conversion-service gives the CRDs with several versions a conversion
// webhook, a malformed one is refused, and --allow-lossy-versions accepts versions with different fields
// without one.
func TestCRDGenConversionFlags(t *testing.T) {
	t.Chdir("../crdgen/testdata/apis")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cli.CRDGen([]string{"--output-dir", out, "--conversion-service", "shop-system/shop-webhook:9443/convert", "./shop/..."}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	gadgets := read(t, filepath.Join(out, "shop.example.com_gadgets.yaml"))
	if !strings.Contains(gadgets, "  conversion:\n    strategy: Webhook\n") || !strings.Contains(gadgets, "          port: 9443\n") {
		t.Errorf("no conversion webhook:\n%s", gadgets)
	}
	if strings.Contains(read(t, filepath.Join(out, "shop.example.com_widgets.yaml")), "conversion:") {
		t.Error("a CRD with one version got a conversion webhook")
	}
	err := cli.CRDGen([]string{"--output-dir", t.TempDir(), "--conversion-service", "shop-webhook", "./shop/..."}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), `--conversion-service: conversion service "shop-webhook": no namespace`) {
		t.Errorf("malformed service: error %v", err)
	}
	out = t.TempDir()
	if err := cli.CRDGen([]string{"--output-dir", out, "--allow-lossy-versions", "./shop/..."}, &stdout, &stderr); err != nil {
		t.Fatalf("--allow-lossy-versions: %v", err)
	}
	if strings.Contains(read(t, filepath.Join(out, "shop.example.com_gadgets.yaml")), "conversion:") {
		t.Error("--allow-lossy-versions wrote a conversion")
	}
}

// TestCRDGenWebhookOutputDir: --webhook-output-dir writes the webhook configurations of the packages'
// +kubebuilder:webhook markers.
func TestCRDGenWebhookOutputDir(t *testing.T) {
	t.Chdir("../crdgen/testdata/webhooks")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cli.CRDGen([]string{"--output-dir", t.TempDir(), "--webhook-output-dir", out, "./..."}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if got := read(t, filepath.Join(out, "manifests.yaml")); strings.Count(got, "- admissionReviewVersions:") != 3 {
		t.Errorf("manifests.yaml:\n%s", got)
	}
}
