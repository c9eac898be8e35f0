package disk_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/discovery/cached/disk"
	"github.com/kgen-dev/kgen/runtime/discovery/fake"
	"github.com/kgen-dev/kgen/runtime/rest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

// server is a fake discovery delegate serving apps/v1 deployments; calls counts what it was asked.
func server() (*fake.FakeDiscovery, func() int) {
	f := &fake.FakeDiscovery{Fake: &ktesting.Fake{Resources: []*metav1.APIResourceList{
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment"}}},
	}}}
	return f, func() int { return len(f.Actions()) }
}

func TestAnswersComeFromFilesUntilTheyExpire(t *testing.T) {
	dir := t.TempDir()
	delegate, calls := server()
	first := disk.NewCachedDiscoveryClient(delegate, dir, time.Hour)
	if _, err := first.ServerResourcesForGroupVersion("apps/v1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := first.ServerGroupsAndResources(); err != nil {
		t.Fatal(err)
	}
	if n := calls(); n != 2 {
		t.Fatalf("%d delegate calls, want 2 (the groups, and apps/v1 once)", n)
	}
	if !first.Fresh() {
		t.Fatal("a client that fetched everything itself is not fresh")
	}

	// The files carry client-go's names and format, owner and group only.
	groupsFile := filepath.Join(dir, "servergroups.json")
	var onDisk map[string]any
	data, err := os.ReadFile(groupsFile)
	if err != nil || json.Unmarshal(data, &onDisk) != nil || onDisk["kind"] != "APIGroupList" || onDisk["apiVersion"] != "v1" {
		t.Fatalf("servergroups.json: %s, %v", data, err)
	}
	resourcesFile := filepath.Join(dir, "apps", "v1", "serverresources.json")
	if info, err := os.Stat(resourcesFile); err != nil || info.Mode().Perm() != 0o660 {
		t.Fatalf("serverresources.json: %v, %v", info, err)
	}

	// A second client on the same directory answers from the files, and is not fresh.
	delegate2, calls2 := server()
	second := disk.NewCachedDiscoveryClient(delegate2, dir, time.Hour)
	preferred, err := second.ServerPreferredResources()
	if err != nil || len(preferred) != 1 || preferred[0].APIResources[0].Name != "deployments" {
		t.Fatalf("preferred: %v, %v", preferred, err)
	}
	if calls2() != 0 || second.Fresh() {
		t.Fatalf("%d delegate calls, fresh %v; want answers from the files written by another client", calls2(), second.Fresh())
	}

	// Expired files are fetched again.
	old := time.Now().Add(-2 * time.Hour)
	for _, f := range []string{groupsFile, resourcesFile} {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := second.ServerGroups(); err != nil || calls2() != 1 {
		t.Fatalf("expired groups: %v, %d calls", err, calls2())
	}
}

func TestInvalidateIgnoresFilesOfOthers(t *testing.T) {
	dir := t.TempDir()
	writer, _ := server()
	if _, err := disk.NewCachedDiscoveryClient(writer, dir, time.Hour).ServerGroups(); err != nil {
		t.Fatal(err)
	}
	delegate, calls := server()
	c := disk.NewCachedDiscoveryClient(delegate, dir, time.Hour)
	if _, err := c.ServerGroups(); err != nil || calls() != 0 {
		t.Fatalf("%v, %d calls; want the other client's file", err, calls())
	}
	c.Invalidate()
	if !c.Fresh() {
		t.Fatal("not fresh right after Invalidate")
	}
	for range 2 {
		if _, err := c.ServerGroups(); err != nil {
			t.Fatal(err)
		}
	}
	if calls() != 1 || !c.Fresh() {
		t.Fatalf("%d calls, fresh %v; want one fetch after Invalidate, then its own file", calls(), c.Fresh())
	}
}

func TestUnusableFilesAndEmptyAnswers(t *testing.T) {
	dir := t.TempDir()
	delegate, calls := server()
	c := disk.NewCachedDiscoveryClient(delegate, dir, time.Hour)
	if err := os.WriteFile(filepath.Join(dir, "servergroups.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if groups, err := c.ServerGroups(); err != nil || len(groups.Groups) != 1 || calls() != 1 {
		t.Fatalf("groups %v, %v, %d calls; want a fetch over a corrupt file", groups, err, calls())
	}
	if _, err := c.ServerResourcesForGroupVersion("batch/v1"); err == nil {
		t.Fatal("an unknown group version was found")
	}
	if _, err := os.Stat(filepath.Join(dir, "batch", "v1")); !os.IsNotExist(err) {
		t.Fatalf("a failed answer was cached: %v", err)
	}
}

func TestHTTPCacheRevalidatesWithETags(t *testing.T) {
	var full, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}`))
	}))
	defer srv.Close()
	httpDir := t.TempDir()
	var firstFull int32
	for i := range 3 {
		// A fresh discovery cache each time (ttl 0), so every call goes to the server over the HTTP cache.
		c, err := disk.NewCachedDiscoveryClientForConfig(&rest.Config{Host: srv.URL}, t.TempDir(), httpDir, 0)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := c.ServerGroups()
		if err != nil || !strings.Contains(groups.String(), "apps/v1") {
			t.Fatalf("call %d: %v, %v", i, groups, err)
		}
		if i == 0 {
			firstFull = full.Load()
		}
	}
	if full.Load() != firstFull || notModified.Load() != 2*firstFull {
		t.Fatalf("%d full responses (%d on the first call) and %d 304s; want bodies only on the first call, then revalidations",
			full.Load(), firstFull, notModified.Load())
	}
}
