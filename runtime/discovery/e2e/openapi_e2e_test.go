package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/discovery/cached/memory"
	"github.com/kgen-dev/kgen/runtime/openapi"
	"github.com/kgen-dev/kgen/runtime/openapi3"
)

// TestOpenAPIV2: a clientset's Discovery().OpenAPISchema() parses the server's swagger document,
// through the cached client too.
func TestOpenAPIV2(t *testing.T) {
	cs := kubernetes.NewForConfigOrDie(env.Config())
	for name, d := range map[string]discovery.OpenAPISchemaInterface{
		"client": cs.Discovery(), "memory cache": memory.NewMemCacheClient(cs.Discovery()),
	} {
		doc, err := d.OpenAPISchema()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.HasPrefix(doc.GetSwagger(), "2.") || doc.GetPaths() == nil {
			t.Fatalf("%s: swagger %q", name, doc.GetSwagger())
		}
		found := false
		for _, p := range doc.GetPaths().GetPath() {
			found = found || p.GetName() == "/apis/apps/v1/namespaces/{namespace}/deployments/{name}"
		}
		var deployment bool
		for _, def := range doc.GetDefinitions().GetAdditionalProperties() {
			deployment = deployment || def.GetName() == "io.k8s.api.apps.v1.Deployment"
		}
		if !found || !deployment {
			t.Fatalf("%s: deployments path %v, Deployment definition %v", name, found, deployment)
		}
	}
	if _, err := cs.Discovery().OpenAPISchemaWithContext(canceled()); err == nil {
		t.Fatal("OpenAPISchemaWithContext ignored a canceled context")
	}
}

// TestOpenAPIV3: Discovery().OpenAPIV3() lists a document per group version, fetches them in
// JSON and protobuf, and openapi3.Root parses them.
func TestOpenAPIV3(t *testing.T) {
	cs := kubernetes.NewForConfigOrDie(env.Config())
	paths, err := cs.Discovery().OpenAPIV3().Paths()
	if err != nil {
		t.Fatal(err)
	}
	apps, ok := paths["apis/apps/v1"]
	if !ok || !strings.HasPrefix(apps.ServerRelativeURL(), "/openapi/v3/apis/apps/v1?hash=") {
		t.Fatalf("apps/v1 document: %v %v", ok, apps)
	}
	body, err := apps.Schema("application/json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("apps/v1 JSON: %q %v", doc.OpenAPI, err)
	}
	pb, err := apps.Schema(openapi.ContentTypeOpenAPIV3PB)
	if err != nil || len(pb) == 0 || json.Valid(pb) {
		t.Fatalf("apps/v1 protobuf: %d bytes, %v", len(pb), err)
	}

	withCtx, err := cs.Discovery().OpenAPIV3WithContext(context.Background()).PathsWithContext(context.Background())
	if err != nil || withCtx["api/v1"] == nil {
		t.Fatalf("PathsWithContext: %v %v", len(withCtx), err)
	}
	if _, err := withCtx["api/v1"].SchemaWithContext(canceled(), "application/json"); err == nil {
		t.Fatal("SchemaWithContext ignored a canceled context")
	}

	root := openapi3.NewRoot(cs.Discovery().OpenAPIV3())
	gvs, err := root.GroupVersions()
	if err != nil {
		t.Fatal(err)
	}
	if !containsGV(gvs, schema.GroupVersion{Version: "v1"}) || !containsGV(gvs, schema.GroupVersion{Group: "apps", Version: "v1"}) {
		t.Fatalf("group versions %v", gvs)
	}
	spec, err := root.GVSpec(schema.GroupVersion{Group: "apps", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Components == nil || spec.Components.Schemas["io.k8s.api.apps.v1.Deployment"] == nil {
		t.Fatal("apps/v1 document lacks the Deployment schema")
	}
	asMap, err := root.GVSpecAsMap(schema.GroupVersion{Version: "v1"})
	if err != nil || asMap["paths"] == nil {
		t.Fatalf("GVSpecAsMap: %v", err)
	}
	var notFound *openapi3.GroupVersionNotFoundError
	if _, err := root.GVSpec(schema.GroupVersion{Group: "nope.example.com", Version: "v1"}); err == nil || !errors.As(err, &notFound) {
		t.Fatalf("unknown group version: %v", err)
	}
}

// TestGroupsAndMaybeResources: with aggregated discovery the groups come with every group
// version's resources; with legacy discovery only the groups; NoPeerDiscovery asks for the
// nopeer profile, which a single server answers with the same documents.
func TestGroupsAndMaybeResources(t *testing.T) {
	d, err := discovery.NewDiscoveryClientForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	noPeer := *d
	noPeer.NoPeerDiscovery = true
	for name, client := range map[string]*discovery.DiscoveryClient{"aggregated": d, "nopeer": &noPeer} {
		groups, resources, failed, err := client.GroupsAndMaybeResources()
		if err != nil || len(failed) != 0 {
			t.Fatalf("%s: %v %v", name, failed, err)
		}
		if len(groups.Groups) == 0 || groups.Groups[0].Name != "" {
			t.Fatalf("%s: groups %v", name, groups.Groups)
		}
		deployments := false
		for _, r := range resources[schema.GroupVersion{Group: "apps", Version: "v1"}].APIResources {
			deployments = deployments || r.Name == "deployments"
		}
		if !deployments {
			t.Fatalf("%s: apps/v1 resources %v", name, resources[schema.GroupVersion{Group: "apps", Version: "v1"}])
		}
	}
	legacy := d.WithLegacy().(discovery.AggregatedDiscoveryInterface)
	groups, resources, _, err := legacy.GroupsAndMaybeResources()
	if err != nil || len(groups.Groups) == 0 || resources != nil {
		t.Fatalf("legacy: %d groups, resources %v, %v", len(groups.Groups), resources != nil, err)
	}
	if _, _, _, err := d.GroupsAndMaybeResourcesWithContext(canceled()); err == nil {
		t.Fatal("GroupsAndMaybeResourcesWithContext ignored a canceled context")
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func containsGV(gvs []schema.GroupVersion, gv schema.GroupVersion) bool {
	for _, g := range gvs {
		if g == gv {
			return true
		}
	}
	return false
}
