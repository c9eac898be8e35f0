package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testdataPkg = "github.com/kgen-dev/kgen/testdata/generated"

// testdataArgs are the kgen generate arguments whose output is testdata's golden deepcopy and register
// files, clientset, listers and informers (generated there by the single-purpose commands).
func testdataArgs(outputDir string) []string {
	return []string{"generate", "--boilerplate", "../hack/boilerplate.go.txt", "--output-dir", outputDir, "--output-pkg", testdataPkg,
		"--plural-exceptions", "Fish:Fish", "--with-watch", "./apis"}
}

func TestGenerateMatchesTheSinglePurposeCommands(t *testing.T) {
	t.Chdir("../../testdata")
	code, out, errOut := runKgen(t, append(testdataArgs("./generated"), "--verify")...)
	if code != 0 || out != "" || !strings.HasPrefix(errOut, "verified 118 files in ") {
		t.Fatalf("kgen generate --verify = %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestGenerateWritesEverythingAndVerifyCountsDifferences(t *testing.T) {
	t.Chdir("../../testdata")
	dir := t.TempDir()
	code, out, errOut := runKgen(t, append(testdataArgs(dir), "--verify")...)
	if code != 1 || !strings.Contains(errOut, "107 of the generated files differ") || !strings.Contains(out, "+++ b/"+filepath.Join(dir, "listers", "example", "v1", "testtype.go")) {
		t.Fatalf("--verify on an empty directory = %d, stderr %q; want 107 differing files and their diff", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatal("--verify wrote files")
	}
	if code, _, errOut := runKgen(t, testdataArgs(dir)...); code != 0 || !strings.Contains(errOut, "(107 written, 11 unchanged, 0 stale removed; load ") {
		t.Fatalf("kgen generate = %d, %q", code, errOut)
	}
	for _, sub := range []string{"clientset/versioned/typed/example/v1/fake", "listers/example/v1", "informers/externalversions/example/v1"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Error(err)
		}
	}
	if code, _, errOut := runKgen(t, append(testdataArgs(dir), "--verify")...); code != 0 {
		t.Fatalf("--verify after generating = %d, %q", code, errOut)
	}
}

func TestGenerateSkipsGenerators(t *testing.T) {
	t.Chdir("../../testdata")
	dir := t.TempDir()
	args := append(testdataArgs(dir), "--skip", "deepcopy,register,informer")
	if code, _, errOut := runKgen(t, args...); code != 0 || !strings.Contains(errOut, "generated 81 files") {
		t.Fatalf("kgen generate --skip deepcopy,register,informer = %d, %q; want the clientset and listers only", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "informers")); !os.IsNotExist(err) {
		t.Fatal("a skipped generator wrote files")
	}
	if code, _, errOut := runKgen(t, "generate", "--skip", "protobuf", "./apis"); code != 1 || !strings.Contains(errOut, `unknown generator "protobuf"`) {
		t.Fatalf("--skip protobuf = %d, %q", code, errOut)
	}
}

func TestGenerateFailureWritesNothing(t *testing.T) {
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":                "module example.com/bad\n\ngo 1.26\n",
		"api/things/v1/doc.go":  "// +groupName=things.example.com\npackage v1\n",
		"api/things/v1/type.go": "package v1\n\n// +genclient\n// +genclient:noStatusx\ntype Thing struct{}\n",
	} {
		path := filepath.Join(module, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	code, _, errOut := runKgen(t, "generate", "--output-dir", "generated", "--output-pkg", "example.com/bad/generated", "--with-watch", "api")
	if code != 1 || !strings.Contains(errOut, filepath.Join("api", "things", "v1", "type.go")+":4") || !strings.Contains(errOut, "+genclient:noStatusx") {
		t.Fatalf("kgen generate on a malformed tag = %d, %q; want an error at type.go:4 naming the tag", code, errOut)
	}
	if _, err := os.Stat("generated"); !os.IsNotExist(err) {
		t.Fatal("a failed run created the output directory")
	}
}

func TestGenerateRejectsBadArguments(t *testing.T) {
	t.Chdir("../../testdata")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate"}, "the input directory argument is required"},
		{[]string{"generate", "apis", "more"}, "one input directory expected"},
		{[]string{"generate", "--output-dir", "x", "apis"}, "--output-dir and --output-pkg go together"},
		{[]string{"generate", "missing"}, "input directory missing: not a directory"},
		{[]string{"generate", "--plural-exceptions", "Fish", "apis"}, "is not in Type:PluralizedType form"},
		{[]string{"generate", "--boilerplate", "nope.txt", "apis"}, "loading boilerplate"},
	} {
		if code, _, errOut := runKgen(t, tc.args...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("kgen %q = %d, %q; want an error containing %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestGenerateHelpDocumentsGeneratorsAndExamples(t *testing.T) {
	code, out, _ := runKgen(t, "help", "generate")
	if code != 0 {
		t.Fatalf("kgen help generate = %d", code)
	}
	for _, want := range []string{"//go:generate go tool kgen generate", "--verify", "--with-watch", "--output-dir", "--one-input-api", "lister", "informer"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "vmodule") || strings.Contains(out, "log_dir") {
		t.Errorf("help shows klog's flags:\n%s", out)
	}
}

func TestGenerateReportsTheWarningsOfConcurrentGenerators(t *testing.T) {
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":                 "module example.com/warn\n\ngo 1.26\n",
		"api/things/v1/doc.go":   "// +groupName=things.example.com\npackage v1\n",
		"api/things/v1/types.go": "// +k8s:deepcopy-gen=package\n\npackage v1\n\n// Thing is a test type.\ntype Thing struct{ Name string }\n",
	} {
		path := filepath.Join(module, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	code, _, errOut := runKgen(t, "generate", "--verify", "api")
	for _, want := range []string{"kgen generate: deepcopy: warning: ", "kgen generate: register: warning: "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("kgen generate = %d, stderr lacks %q:\n%s", code, want, errOut)
		}
	}
}

// Dependencies type-checked from source (what an empty build cache gets) and read from export data give
// the same output: each path verifies against the golden files, byte for byte.
func TestGenerateSameOutputFromExportDataAndSource(t *testing.T) {
	t.Chdir("../../testdata")
	for _, deps := range []string{"source", "export"} {
		code, out, errOut := runKgen(t, append(testdataArgs("./generated"), "--verify", "-v", "--force", "--deps", deps)...)
		if code != 0 || out != "" || !strings.Contains(errOut, "verified 118 files in ") {
			t.Fatalf("kgen generate --verify --deps %s = %d\nstdout:\n%s\nstderr:\n%s", deps, code, out, errOut)
		}
		want := map[string]string{"source": "dependencies from source (no export data in the build cache): 0 from export data", "export": "dependencies from export data"}[deps]
		if !strings.Contains(errOut, want) {
			t.Errorf("-v --deps %s does not say which path ran (want %q):\n%s", deps, want, errOut)
		}
	}
	if code, _, errOut := runKgen(t, "generate", "--deps", "fast", "./apis"); code != 1 || !strings.Contains(errOut, `--deps: unknown mode "fast"`) {
		t.Errorf("--deps fast = %d, %q", code, errOut)
	}
}

// The --crd-* flags reach the CRD generator: a float64 field is refused without
// --crd-allow-dangerous-types and is a number with it; --crd-generate-embedded-object-meta gives a pod
// template's metadata its fields.
func TestGenerateCRDFlags(t *testing.T) {
	t.Chdir("../generators/crdgen/testdata/bad/float")
	crds := t.TempDir()
	args := []string{"generate", "--force", "--output-dir", t.TempDir(), "--output-pkg", "example.com/out", "--crd-dir", crds,
		"--skip", "deepcopy,register,applyconfiguration,client,lister,informer", "."}
	if code, _, errOut := runKgen(t, args...); code != 1 || !strings.Contains(errOut, "--crd-allow-dangerous-types") {
		t.Fatalf("float64 without --crd-allow-dangerous-types = %d\n%s", code, errOut)
	}
	if code, _, errOut := runKgen(t, append(args[:len(args)-1], "--crd-allow-dangerous-types", ".")...); code != 0 {
		t.Fatalf("with --crd-allow-dangerous-types = %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(crds, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("CRDs: %v", files)
	}
	if content, _ := os.ReadFile(files[0]); !strings.Contains(string(content), "type: number") {
		t.Fatalf("%s:\n%s", files[0], content)
	}

	t.Chdir("../../apis/shop/v1")
	args[len(args)-1] = "--crd-generate-embedded-object-meta"
	if code, _, errOut := runKgen(t, append(args, ".")...); code != 0 {
		t.Fatalf("with --crd-generate-embedded-object-meta = %d\n%s", code, errOut)
	}
	if content, _ := os.ReadFile(filepath.Join(crds, "shop.example.com_widgets.yaml")); !strings.Contains(string(content), "finalizers:") {
		t.Fatalf("template metadata without its fields:\n%s", content)
	}
}

// --crd-conversion-service gives a kind with versions of different fields a conversion webhook; without
// it (or --crd-allow-lossy-versions) the run fails, naming the fields.
func TestGenerateCRDConversionFlags(t *testing.T) {
	t.Chdir("../generators/crdgen/testdata/bad/lossyversions")
	crds := t.TempDir()
	args := []string{"generate", "--force", "--output-dir", t.TempDir(), "--output-pkg", "example.com/out", "--crd-dir", crds,
		"--skip", "deepcopy,register,applyconfiguration,client,lister,informer"}
	if code, _, errOut := runKgen(t, append(args, ".")...); code != 1 || !strings.Contains(errOut, "an object written as v1beta1 loses spec.coats (string, but integer in v1), spec.colour when read as v1") {
		t.Fatalf("lossy versions = %d\n%s", code, errOut)
	}
	if code, _, errOut := runKgen(t, append(args, "--crd-conversion-service", "nowhere", ".")...); code != 1 || !strings.Contains(errOut, "--crd-conversion-service: conversion service \"nowhere\": no namespace") {
		t.Fatalf("malformed service = %d\n%s", code, errOut)
	}
	if code, _, errOut := runKgen(t, append(args, "--crd-allow-lossy-versions", ".")...); code != 0 {
		t.Fatalf("--crd-allow-lossy-versions = %d\n%s", code, errOut)
	}
	if code, _, errOut := runKgen(t, append(args, "--crd-conversion-service", "paint-system/paint-webhook:9443", ".")...); code != 0 {
		t.Fatalf("--crd-conversion-service = %d\n%s", code, errOut)
	}
	content, _ := os.ReadFile(filepath.Join(crds, "lossy.example.com_paints.yaml"))
	if !strings.Contains(string(content), "    strategy: Webhook\n") || !strings.Contains(string(content), "          name: paint-webhook\n") {
		t.Fatalf("no conversion webhook:\n%s", content)
	}
}

// --webhook-dir writes the admission webhook configurations of the input packages' +kubebuilder:webhook
// markers beside the CRDs; without --crd-dir it is refused.
func TestGenerateWebhookDir(t *testing.T) {
	t.Chdir("../generators/crdgen/testdata/webhooks")
	webhooks := t.TempDir()
	args := []string{"generate", "--force", "--output-dir", t.TempDir(), "--output-pkg", "example.com/out",
		"--skip", "deepcopy,register,applyconfiguration,client,lister,informer", "--webhook-dir", webhooks}
	if code, _, errOut := runKgen(t, append(args, ".")...); code != 1 || !strings.Contains(errOut, "--webhook-dir needs --crd-dir") {
		t.Fatalf("--webhook-dir alone = %d\n%s", code, errOut)
	}
	if code, _, errOut := runKgen(t, append(args, "--crd-dir", t.TempDir(), ".")...); code != 0 {
		t.Fatalf("--webhook-dir = %d\n%s", code, errOut)
	}
	content, err := os.ReadFile(filepath.Join(webhooks, "manifests.yaml"))
	if err != nil || !strings.Contains(string(content), "kind: MutatingWebhookConfiguration\n") || !strings.Contains(string(content), "kind: ValidatingWebhookConfiguration\n") {
		t.Fatalf("manifests.yaml (%v):\n%s", err, content)
	}
}
