package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/sharding"
)

// v138Proxy stands between the clients and testenv's kube-apiserver 1.37 (gate on) and answers as
// kube-apiserver 1.38 does (k8s.io/apiserver v0.38.0-beta.0): there UnstructuredList implements
// metav1.ShardedListInterface and the PartialObjectMetadataList conversion copies ShardInfo, so
// lists of custom resources and metadata-only lists echo the shard selector in metadata.shardInfo,
// as typed lists of built-in kinds already do in 1.37. With gateOff it answers as 1.38 with the
// ShardedListAndWatch gate turned off: the parameter is ignored and nothing is echoed.
type v138Proxy struct {
	gateOff bool
	// sharded counts the list requests carrying a shard selector; leaseLists those of Leases.
	sharded, leaseLists atomic.Int32
}

// config returns a client configuration that talks to the server through p.
func (p *v138Proxy) config(t *testing.T) *rest.Config {
	t.Helper()
	upstream := env.Config()
	target, err := url.Parse(upstream.Host)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := rest.TransportFor(upstream)
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			q := r.Out.URL.Query()
			if q.Get("shardSelector") != "" && q.Get("watch") == "" {
				p.sharded.Add(1)
			}
			if strings.HasSuffix(r.Out.URL.Path, "/leases") && q.Get("watch") == "" {
				p.leaseLists.Add(1)
			}
			if p.gateOff {
				q.Del("shardSelector")
				r.Out.URL.RawQuery = q.Encode()
			} else if q.Get("shardSelector") != "" && q.Get("watch") == "" {
				// JSON, which the proxy can edit: every client accepts it besides protobuf.
				var accept []string
				for _, a := range strings.Split(r.Out.Header.Get("Accept"), ",") {
					if !strings.Contains(a, "protobuf") {
						accept = append(accept, a)
					}
				}
				r.Out.Header.Set("Accept", strings.Join(accept, ","))
			}
		},
		Transport:      rt,
		FlushInterval:  -1, // watches stream
		ModifyResponse: p.echoShardInfo,
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL, QPS: 1000, Burst: 2000}
}

// echoShardInfo adds metadata.shardInfo to a JSON list answering a request with a shard selector
// that lacks it, as kube-apiserver 1.38 sets it for every list its selector filtered.
func (p *v138Proxy) echoShardInfo(resp *http.Response) error {
	selector := resp.Request.URL.Query().Get("shardSelector")
	if p.gateOff || selector == "" || resp.Request.URL.Query().Get("watch") != "" || resp.StatusCode != http.StatusOK ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	var list map[string]any
	if err := json.Unmarshal(body, &list); err != nil {
		return err
	}
	if kind, _ := list["kind"].(string); strings.HasSuffix(kind, "List") {
		if _, found, _ := unstructured.NestedMap(list, "metadata", "shardInfo"); !found {
			if err := unstructured.SetNestedField(list, selector, "metadata", "shardInfo", "selector"); err != nil {
				return err
			}
			if body, err = json.Marshal(list); err != nil {
				return err
			}
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// TestProbeRecognisesKubeAPIServer138 runs the probes against kube-apiserver 1.38's answers: with
// the gate on (1.38's default) a list of custom resources or a metadata-only list proves support
// at the first request, even for an empty collection, with no need for the Leases; with the gate
// off the selector is ignored and the probes say no.
func TestProbeRecognisesKubeAPIServer138(t *testing.T) {
	ctx := context.Background()
	ns := "probe138"
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := env.InstallCRDs(ctx, []byte(itemCRD)); err != nil {
		t.Fatal(err)
	}

	on := &v138Proxy{}
	cfg := on.config(t)
	meta, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	proxied, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	metaItems := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return meta.Resource(items).Namespace(ns).List(ctx, opts)
	}
	dynItems := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return dyn.Resource(items).Namespace(ns).List(ctx, opts)
	}
	// An empty collection proves support at once: the echo needs no object to leave out.
	for name, list := range map[string]sharding.ListFunc{"metadata-only": metaItems, "custom resource": dynItems} {
		before := on.sharded.Load()
		ok, err := sharding.ServerShardingSupported(ctx, sharding.UIDField, list)
		if err != nil || !ok {
			t.Fatalf("1.38, empty %s list: supported = %v, %v", name, ok, err)
		}
		if n := on.sharded.Load() - before; n != 1 {
			t.Errorf("1.38, empty %s list: the probe made %d sharded lists, want 1", name, n)
		}
	}
	scfg := sharding.Config{Ring: "r", Identity: "a", Namespace: ns, Leases: proxied.CoordinationV1().Leases(ns), Metadata: meta,
		ObjectNamespace: ns, Resources: []sharding.Resource{itemsRes}}
	if ok, err := sharding.SupportsServerMode(ctx, scfg); err != nil || !ok {
		t.Fatalf("1.38: SupportsServerMode on an empty collection = %v, %v", ok, err)
	}
	if n := on.leaseLists.Load(); n != 0 {
		t.Errorf("1.38: SupportsServerMode listed the Leases %d times, want 0: the items' own lists prove support", n)
	}

	// A full collection: the echo still answers at the first list.
	for i := range 5 {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "sharding.kgen.dev/v1", "kind": "Item",
			"metadata": map[string]any{"name": fmt.Sprintf("item-%d", i)}, "spec": map[string]any{"value": int64(1)},
		}}
		if _, err := dyn.Resource(items).Namespace(ns).Create(ctx, u, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	before := on.sharded.Load()
	if ok, err := sharding.ServerShardingSupported(ctx, sharding.NamespaceField, metaItems); err != nil || !ok {
		t.Fatalf("1.38, metadata-only list by namespace: supported = %v, %v", ok, err)
	}
	if n := on.sharded.Load() - before; n != 1 {
		t.Errorf("1.38, full metadata-only list: the probe made %d sharded lists, want 1", n)
	}
	// The informers' lists through ListerWatcher carry the echo and keep only the share.
	list, err := meta.Resource(items).Namespace(ns).List(ctx, metav1.ListOptions{
		ShardSelector: sharding.ShardSelector(sharding.UIDField, []sharding.HashRange{{Start: 0, End: 1 << 63}})})
	if err != nil {
		t.Fatal(err)
	}
	if list.ShardInfo == nil || list.ShardInfo.Selector == "" {
		t.Fatal("the 1.38 proxy did not echo shardInfo on a metadata-only list")
	}

	// 1.38 with the gate off ignores the selector: the probe sees the object it left out.
	off := &v138Proxy{gateOff: true}
	offCfg := off.config(t)
	offMeta, err := metadata.NewForConfig(offCfg)
	if err != nil {
		t.Fatal(err)
	}
	offLeases, err := kubernetes.NewForConfig(offCfg)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := sharding.ServerShardingSupported(ctx, sharding.UIDField, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return offMeta.Resource(items).Namespace(ns).List(ctx, opts)
	})
	if err != nil || ok {
		t.Fatalf("1.38 with the gate off: supported = %v, %v; want no", ok, err)
	}
	scfg.Metadata, scfg.Leases = offMeta, offLeases.CoordinationV1().Leases(ns)
	if ok, err := sharding.SupportsServerMode(ctx, scfg); err != nil || ok {
		t.Fatalf("1.38 with the gate off: SupportsServerMode = %v, %v; want no", ok, err)
	}
	scfg.ObjectNamespace = "default" // empty: the Leases prove nothing either
	if ok, err := sharding.SupportsServerMode(ctx, scfg); err != nil || ok {
		t.Fatalf("1.38 with the gate off, empty collection: SupportsServerMode = %v, %v; want no", ok, err)
	}
}
