package e2e_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/runtime/dynamic"
)

// TestWebhookManifestsAccepted creates the admission webhook configurations crd-gen writes for
// ../testdata/webhooks on the real kube-apiserver, which validates them, reads them back and deletes
// them.
func TestWebhookManifestsAccepted(t *testing.T) {
	prog, err := load.Load(load.Config{}, "../testdata/webhooks/...")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.FromProgram(prog, prog.Packages, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := output.NewSet(crdgen.Generator)
	dir := t.TempDir()
	if err := crdgen.Generate(prog, prog.Packages, m, crdgen.Config{OutputDir: t.TempDir(), WebhookDir: dir}, set); err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for _, doc := range bytes.Split(set.Content(filepath.Join(dir, crdgen.WebhookManifestsFile)), []byte("\n---\n")) {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			t.Fatal(err)
		}
		if len(obj.Object) == 0 {
			continue // the ownership line
		}
		resource := strings.ToLower(obj.GetKind()) + "s"
		client := dc.Resource(schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: resource})
		if _, err := client.Create(t.Context(), obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s %s: %v", obj.GetKind(), obj.GetName(), err)
		}
		got, err := client.Get(t.Context(), obj.GetName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if hooks, _, _ := unstructured.NestedSlice(got.Object, "webhooks"); len(hooks) != len(obj.Object["webhooks"].([]any)) {
			t.Errorf("%s: %d webhooks stored, %d sent", obj.GetName(), len(hooks), len(obj.Object["webhooks"].([]any)))
		}
		if err := client.Delete(t.Context(), obj.GetName(), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		created++
	}
	if created != 2 {
		t.Errorf("created %d webhook configurations, want 2", created)
	}
}
