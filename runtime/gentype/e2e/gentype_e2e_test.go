package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/gentype"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/gentypetest"
	"github.com/kgen-dev/kgen/runtime/rest"
)

type (
	configMapClient  = gentype.ClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig]
	deploymentClient = gentype.ClientWithListAndApply[*appsv1.Deployment, *appsv1.DeploymentList, *gentypetest.ApplyConfig]
	namespaceClient  = gentype.ClientWithListAndApply[*corev1.Namespace, *corev1.NamespaceList, *gentypetest.ApplyConfig]
)

// requestLog records the requests a REST client sends.
type requestLog struct {
	mu       sync.Mutex
	requests []*http.Request
}

func (l *requestLog) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		l.mu.Lock()
		l.requests = append(l.requests, req.Clone(req.Context()))
		l.mu.Unlock()
		return next.RoundTrip(req)
	})
}

func (l *requestLog) all() []*http.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.requests)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// restClient returns a REST client for gv configured the way a generated group client configures
// its own, recording its requests in log when log is not nil.
func restClient(t *testing.T, gv schema.GroupVersion, log *requestLog) rest.Interface {
	t.Helper()
	cfg := rest.CopyConfig(env.Config())
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.NegotiatedSerializer = rest.CodecFactoryForGeneratedClient(gentypetest.Scheme, gentypetest.Codecs).WithoutConversion()
	if log != nil {
		cfg.WrapTransport = log.wrap
	}
	client, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func configMaps(t *testing.T, namespace string) *configMapClient {
	return gentype.NewClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig](
		"configmaps", restClient(t, corev1.SchemeGroupVersion, nil), gentypetest.ParameterCodec, namespace, gentypetest.NewConfigMap, gentypetest.NewConfigMapList)
}

func deployments(t *testing.T, namespace string) *deploymentClient {
	return gentype.NewClientWithListAndApply[*appsv1.Deployment, *appsv1.DeploymentList, *gentypetest.ApplyConfig](
		"deployments", restClient(t, appsv1.SchemeGroupVersion, nil), gentypetest.ParameterCodec, namespace, gentypetest.NewDeployment, gentypetest.NewDeploymentList)
}

func namespaces(t *testing.T) *namespaceClient {
	return gentype.NewClientWithListAndApply[*corev1.Namespace, *corev1.NamespaceList, *gentypetest.ApplyConfig](
		"namespaces", restClient(t, corev1.SchemeGroupVersion, nil), gentypetest.ParameterCodec, "", gentypetest.NewNamespace, gentypetest.NewNamespaceList)
}

var nonDNS = regexp.MustCompile(`[^a-z0-9]+`)

// testNamespace creates a namespace for the test through the cluster-scoped client and returns its name.
func testNamespace(t *testing.T) string {
	t.Helper()
	prefix := strings.Trim(nonDNS.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(prefix) > 50 {
		prefix = prefix[:50]
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}
	name := must(namespaces(t).Create(context.Background(), ns, metav1.CreateOptions{}))(t).Name
	t.Cleanup(func() { _ = namespaces(t).Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}

func TestClientConfigMapVerbs(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	cms := configMaps(t, ns)
	if cms.GetNamespace() != ns || cms.GetClient() == nil {
		t.Fatalf("GetNamespace() = %q, GetClient() = %v", cms.GetNamespace(), cms.GetClient())
	}

	created := must(cms.Create(ctx, gentypetest.ConfigMap("a", map[string]string{"app": "web"}, map[string]string{"k": "1"}), metav1.CreateOptions{}))(t)
	if created.Namespace != ns || created.UID == "" || created.ResourceVersion == "" {
		t.Fatalf("Create returned %+v", created.ObjectMeta)
	}
	if _, err := cms.Create(ctx, gentypetest.ConfigMap("a", nil, nil), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second Create: err %v, want AlreadyExists", err)
	}
	dryRun := must(cms.Create(ctx, gentypetest.ConfigMap("dry", nil, nil), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}))(t)
	if dryRun.Name != "dry" {
		t.Errorf("dry-run Create returned %q", dryRun.Name)
	}
	if _, err := cms.Get(ctx, "dry", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("dry-run Create persisted the object (err %v): options were not sent", err)
	}

	got := must(cms.Get(ctx, "a", metav1.GetOptions{}))(t)
	if got.UID != created.UID || got.Data["k"] != "1" {
		t.Fatalf("Get returned %+v", got)
	}
	generated := &configMapsClient{cms}
	if raw := must(generated.getThroughRESTClient(ctx, "a"))(t); raw.UID != created.UID {
		t.Errorf("a request built from GetClient and GetNamespace returned %+v", raw.ObjectMeta)
	}
	got.Data["k"] = "2"
	updated := must(cms.Update(ctx, got, metav1.UpdateOptions{}))(t)
	if updated.Data["k"] != "2" || updated.ResourceVersion == got.ResourceVersion {
		t.Fatalf("Update returned data %v, resourceVersion %s", updated.Data, updated.ResourceVersion)
	}
	if _, err := cms.Update(ctx, got, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("Update with a stale resourceVersion: err %v, want Conflict", err)
	}

	patched := must(cms.Patch(ctx, "a", types.MergePatchType, []byte(`{"data":{"p":"yes"}}`), metav1.PatchOptions{}))(t)
	if patched.Data["p"] != "yes" || patched.Data["k"] != "2" {
		t.Fatalf("merge Patch returned data %v", patched.Data)
	}
	jsonPatched := must(cms.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"remove","path":"/data/p"}]`), metav1.PatchOptions{}))(t)
	if _, ok := jsonPatched.Data["p"]; ok {
		t.Fatalf("JSON Patch did not remove the key: %v", jsonPatched.Data)
	}

	missing, err := cms.Get(ctx, "missing", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) || missing == nil || missing.Name != "" {
		t.Errorf("Get of a missing object: (%v, %v), want an empty object and NotFound", missing, err)
	}

	if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get after Delete: err %v, want NotFound", err)
	}
	if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("second Delete: err %v, want NotFound", err)
	}
}

func TestClientListAndDeleteCollection(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	cms := configMaps(t, ns)
	for name, app := range map[string]string{"a": "web", "b": "web", "c": "db"} {
		must(cms.Create(ctx, gentypetest.ConfigMap(name, map[string]string{"app": app}, nil), metav1.CreateOptions{}))(t)
	}
	listNames := func(opts metav1.ListOptions) []string {
		t.Helper()
		list := must(cms.List(ctx, opts))(t)
		if list.ResourceVersion == "" {
			t.Errorf("List returned no list metadata")
		}
		got := names(list.Items)
		slices.Sort(got)
		return slices.DeleteFunc(got, func(n string) bool { return n == "kube-root-ca.crt" })
	}

	if got := listNames(metav1.ListOptions{LabelSelector: "app=web"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("List(app=web) = %v", got)
	}
	if got := listNames(metav1.ListOptions{FieldSelector: "metadata.name=c"}); !slices.Equal(got, []string{"c"}) {
		t.Errorf("List(metadata.name=c) = %v", got)
	}
	page := must(cms.List(ctx, metav1.ListOptions{LabelSelector: "app", Limit: 2}))(t)
	if len(page.Items) != 2 || page.Continue == "" {
		t.Errorf("List with Limit 2 returned %d items, continue %q", len(page.Items), page.Continue)
	}

	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=web"}); err != nil {
		t.Fatal(err)
	}
	if got := listNames(metav1.ListOptions{LabelSelector: "app"}); !slices.Equal(got, []string{"c"}) {
		t.Errorf("after DeleteCollection(app=web) List = %v, want [c]", got)
	}
	if _, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app in (web"}); !apierrors.IsBadRequest(err) {
		t.Errorf("List with a malformed selector: err %v, want BadRequest", err)
	}
}

func TestClientListWatchAndDeleteCollectionTimeouts(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	var log requestLog
	cms := gentype.NewClientWithList[*corev1.ConfigMap, *corev1.ConfigMapList](
		"configmaps", restClient(t, corev1.SchemeGroupVersion, &log), gentypetest.ParameterCodec, ns, gentypetest.NewConfigMap, gentypetest.NewConfigMapList)
	seconds := int64(7)
	must(cms.List(ctx, metav1.ListOptions{TimeoutSeconds: &seconds}))(t)
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{TimeoutSeconds: &seconds}); err != nil {
		t.Fatal(err)
	}
	one := int64(1)
	w := must(cms.Watch(ctx, metav1.ListOptions{TimeoutSeconds: &one}))(t)
	deadline := time.After(30 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-w.ResultChan():
		case <-deadline:
			t.Fatal("a watch with TimeoutSeconds 1 is still open after 30s")
		}
	}
	reqs := log.all()
	if len(reqs) != 3 {
		t.Fatalf("sent %d requests, want 3", len(reqs))
	}
	for i, want := range []string{"timeout=7s", "timeout=7s", "timeout=1s"} {
		if q := reqs[i].URL.RawQuery; !strings.Contains(q, want) || !strings.Contains(q, "timeoutSeconds=") {
			t.Errorf("request %d %s %s lacks %s and timeoutSeconds", i, reqs[i].Method, reqs[i].URL, want)
		}
	}
	if q := reqs[2].URL.Query(); q.Get("watch") != "true" {
		t.Errorf("watch request %s does not ask for a watch", reqs[2].URL)
	}
}

func TestClientWatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns := testNamespace(t)
	cms := configMaps(t, ns)
	w := must(cms.Watch(ctx, metav1.ListOptions{LabelSelector: "watched=yes"}))(t)
	defer w.Stop()

	watched := gentypetest.ConfigMap("w", map[string]string{"watched": "yes"}, nil)
	watched = must(cms.Create(ctx, watched, metav1.CreateOptions{}))(t)
	must(cms.Create(ctx, gentypetest.ConfigMap("ignored", nil, nil), metav1.CreateOptions{}))(t)
	watched.Data = map[string]string{"k": "v"}
	must(cms.Update(ctx, watched, metav1.UpdateOptions{}))(t)
	if err := cms.Delete(ctx, "w", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	var got []string
	for len(got) < 3 {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed after %v", got)
			}
			cm, isCM := ev.Object.(*corev1.ConfigMap)
			if !isCM {
				t.Fatalf("watch delivered %v %T", ev.Type, ev.Object)
			}
			got = append(got, string(ev.Type)+" "+cm.Name)
		case <-ctx.Done():
			t.Fatalf("watch events so far %v: %v", got, ctx.Err())
		}
	}
	want := []string{string(watch.Added) + " w", string(watch.Modified) + " w", string(watch.Deleted) + " w"}
	if !slices.Equal(got, want) {
		t.Errorf("watch events %v, want %v", got, want)
	}
}

func TestClientApply(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	cms := configMaps(t, ns)

	applied := must(cms.Apply(ctx, gentypetest.ConfigMapApply("applied", map[string]string{"owner": "one"}), metav1.ApplyOptions{FieldManager: "one"}))(t)
	if applied.Data["owner"] != "one" || applied.Namespace != ns {
		t.Fatalf("Apply returned %+v", applied)
	}
	if len(applied.ManagedFields) != 1 || applied.ManagedFields[0].Manager != "one" ||
		applied.ManagedFields[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Errorf("Apply recorded managed fields %+v, want one Apply entry by manager one", applied.ManagedFields)
	}

	conflicting := gentypetest.ConfigMapApply("applied", map[string]string{"owner": "two"})
	if _, err := cms.Apply(ctx, conflicting, metav1.ApplyOptions{FieldManager: "two"}); !apierrors.IsConflict(err) {
		t.Errorf("conflicting Apply without Force: err %v, want Conflict", err)
	}
	forced := must(cms.Apply(ctx, conflicting, metav1.ApplyOptions{FieldManager: "two", Force: true}))(t)
	if forced.Data["owner"] != "two" {
		t.Errorf("forced Apply returned data %v", forced.Data)
	}
	dry := must(cms.Apply(ctx, gentypetest.ConfigMapApply("applied", map[string]string{"owner": "dry"}),
		metav1.ApplyOptions{FieldManager: "two", DryRun: []string{metav1.DryRunAll}}))(t)
	if dry.Data["owner"] != "dry" || must(cms.Get(ctx, "applied", metav1.GetOptions{}))(t).Data["owner"] != "two" {
		t.Errorf("dry-run Apply: returned %v and changed the stored object", dry.Data)
	}
}

func TestClientApplyRejectsBadInputWithoutSending(t *testing.T) {
	ctx := context.Background()
	var log requestLog
	cms := gentype.NewClientWithApply[*corev1.ConfigMap, *gentypetest.ApplyConfig](
		"configmaps", restClient(t, corev1.SchemeGroupVersion, &log), gentypetest.ParameterCodec, "default", gentypetest.NewConfigMap)
	opts := metav1.ApplyOptions{FieldManager: "test"}
	for name, call := range map[string]func() (*corev1.ConfigMap, error){
		"nil configuration": func() (*corev1.ConfigMap, error) { return cms.Apply(ctx, nil, opts) },
		"nil name":          func() (*corev1.ConfigMap, error) { return cms.Apply(ctx, &gentypetest.ApplyConfig{}, opts) },
		"empty name": func() (*corev1.ConfigMap, error) {
			return cms.ApplyStatus(ctx, gentypetest.ConfigMapApply("", nil), opts)
		},
		"empty fieldManager": func() (*corev1.ConfigMap, error) {
			return cms.Apply(ctx, gentypetest.ConfigMapApply("x", nil), metav1.ApplyOptions{})
		},
		"nil status config": func() (*corev1.ConfigMap, error) { return cms.ApplyStatus(ctx, nil, opts) },
		"unencodable": func() (*corev1.ConfigMap, error) {
			unencodable := gentypetest.ConfigMapApply("x", nil)
			unencodable.Spec = map[string]any{"c": make(chan int)}
			return cms.Apply(ctx, unencodable, opts)
		},
	} {
		if obj, err := call(); err == nil || obj != nil {
			t.Errorf("%s: Apply returned (%v, %v), want (nil, error)", name, obj, err)
		}
	}
	if n := len(log.all()); n != 0 {
		t.Errorf("rejected applies sent %d requests", n)
	}
}

func TestClientDeploymentStatus(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	deploys := deployments(t, ns)
	d := must(deploys.Create(ctx, gentypetest.Deployment("web"), metav1.CreateOptions{}))(t)

	replicas := int32(5)
	d.Spec.Replicas = &replicas
	d.Status.ObservedGeneration = 1
	d.Status.Replicas = 2
	d = must(deploys.UpdateStatus(ctx, d, metav1.UpdateOptions{}))(t)
	if d.Status.ObservedGeneration != 1 || d.Status.Replicas != 2 {
		t.Errorf("UpdateStatus returned status %+v", d.Status)
	}
	if *d.Spec.Replicas == 5 {
		t.Errorf("UpdateStatus changed the spec: it did not go to the status subresource")
	}

	d.Spec.Replicas = &replicas
	d.Status.Replicas = 0
	d = must(deploys.Update(ctx, d, metav1.UpdateOptions{}))(t)
	if *d.Spec.Replicas != 5 || d.Status.Replicas != 2 {
		t.Errorf("Update returned spec.replicas %d status.replicas %d, want 5 and 2", *d.Spec.Replicas, d.Status.Replicas)
	}

	status := &gentypetest.ApplyConfig{APIVersion: "apps/v1", Kind: "Deployment", Metadata: gentypetest.ApplyMetadata{Name: &d.Name},
		Status: map[string]any{"collisionCount": 4}}
	d = must(deploys.ApplyStatus(ctx, status, metav1.ApplyOptions{FieldManager: "status-writer"}))(t)
	if d.Status.CollisionCount == nil || *d.Status.CollisionCount != 4 {
		t.Errorf("ApplyStatus returned status %+v", d.Status)
	}
	if !slices.ContainsFunc(d.ManagedFields, func(e metav1.ManagedFieldsEntry) bool {
		return e.Manager == "status-writer" && e.Subresource == "status"
	}) {
		t.Errorf("ApplyStatus did not go to the status subresource: managed fields %+v", d.ManagedFields)
	}

	d = must(deploys.Patch(ctx, "web", types.MergePatchType, []byte(`{"status":{"readyReplicas":1}}`), metav1.PatchOptions{}, "status"))(t)
	if d.Status.ReadyReplicas != 1 {
		t.Errorf("status Patch returned status %+v", d.Status)
	}

	spec := &gentypetest.ApplyConfig{APIVersion: "apps/v1", Kind: "Deployment", Metadata: gentypetest.ApplyMetadata{Name: &d.Name},
		Spec: map[string]any{"paused": true}}
	d = must(deploys.Apply(ctx, spec, metav1.ApplyOptions{FieldManager: "pauser"}))(t)
	if !d.Spec.Paused || d.Status.ReadyReplicas != 1 {
		t.Errorf("Apply returned paused %v, readyReplicas %d", d.Spec.Paused, d.Status.ReadyReplicas)
	}
	list := must(deploys.List(ctx, metav1.ListOptions{}))(t)
	if got := names(list.Items); !slices.Equal(got, []string{"web"}) {
		t.Errorf("List = %v", got)
	}
}

func TestClientClusterScoped(t *testing.T) {
	ctx := context.Background()
	nss := namespaces(t)
	if nss.GetNamespace() != "" {
		t.Fatalf("cluster-scoped client has namespace %q", nss.GetNamespace())
	}
	run := fmt.Sprint(time.Now().UnixNano())
	created := must(nss.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: "cluster-scoped-", Labels: map[string]string{"gentype": run}}}, metav1.CreateOptions{}))(t)
	name := created.Name
	if !strings.HasPrefix(name, "cluster-scoped-") || created.Namespace != "" {
		t.Fatalf("Create returned %s/%s", created.Namespace, created.Name)
	}
	if got := must(nss.Get(ctx, name, metav1.GetOptions{}))(t); got.UID != created.UID {
		t.Errorf("Get returned UID %s, want %s", got.UID, created.UID)
	}
	list := must(nss.List(ctx, metav1.ListOptions{LabelSelector: "gentype=" + run}))(t)
	if got := names(list.Items); !slices.Equal(got, []string{name}) {
		t.Errorf("List(gentype=%s) = %v, want [%s]", run, got, name)
	}
	labelled := &gentypetest.ApplyConfig{APIVersion: "v1", Kind: "Namespace",
		Metadata: gentypetest.ApplyMetadata{Name: &name, Labels: map[string]string{"applied": "yes"}}}
	applied := must(nss.Apply(ctx, labelled, metav1.ApplyOptions{FieldManager: "labeller"}))(t)
	if applied.Labels["applied"] != "yes" || applied.Labels["gentype"] != run {
		t.Errorf("Apply returned labels %v", applied.Labels)
	}
	patched := must(nss.Patch(ctx, name, types.StrategicMergePatchType, []byte(`{"metadata":{"annotations":{"a":"b"}}}`), metav1.PatchOptions{}))(t)
	if patched.Annotations["a"] != "b" {
		t.Errorf("strategic merge Patch returned annotations %v", patched.Annotations)
	}
	if err := nss.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Without a namespace controller a deleted namespace stays terminating.
	got, err := nss.Get(ctx, name, metav1.GetOptions{})
	if err == nil && got.DeletionTimestamp == nil {
		t.Errorf("namespace %s is not being deleted after Delete", name)
	} else if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
}

func TestClientPrefersProtobuf(t *testing.T) {
	ctx := context.Background()
	ns := testNamespace(t)
	for _, tc := range []struct {
		name    string
		options []gentype.Option[*corev1.ConfigMap]
		accept  string
	}{
		{"default", nil, "application/json"},
		{"prefers protobuf", []gentype.Option[*corev1.ConfigMap]{gentype.PrefersProtobuf[*corev1.ConfigMap]()}, "application/vnd.kubernetes.protobuf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log requestLog
			cms := gentype.NewClient("configmaps", restClient(t, corev1.SchemeGroupVersion, &log), gentypetest.ParameterCodec, ns,
				gentypetest.NewConfigMap, tc.options...)
			name := strings.ReplaceAll(tc.name, " ", "-")
			must(cms.Create(ctx, gentypetest.ConfigMap(name, nil, map[string]string{"k": "v"}), metav1.CreateOptions{}))(t)
			got := must(cms.Get(ctx, name, metav1.GetOptions{}))(t)
			if got.Data["k"] != "v" {
				t.Errorf("Get returned data %v", got.Data)
			}
			for _, req := range log.all() {
				if accept := req.Header.Get("Accept"); !strings.HasPrefix(accept, tc.accept) {
					t.Errorf("%s %s sent Accept %q, want it to start with %s", req.Method, req.URL.Path, accept, tc.accept)
				}
				if ct := req.Header.Get("Content-Type"); req.Method == http.MethodPost && ct != tc.accept {
					t.Errorf("POST %s sent a %q body, want %s", req.URL.Path, ct, tc.accept)
				}
			}
		})
	}
}

// configMapsClient has the shape client-gen emits for a typed client with every verb.
type configMapsClient struct {
	*gentype.ClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig]
}

// An extension verb in a generated client builds its request from GetClient and GetNamespace.
func (c *configMapsClient) getThroughRESTClient(ctx context.Context, name string) (*corev1.ConfigMap, error) {
	result := &corev1.ConfigMap{}
	err := c.GetClient().Get().Namespace(c.GetNamespace()).Resource("configmaps").Name(name).Do(ctx).Into(result)
	return result, err
}
