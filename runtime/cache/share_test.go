package cache

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
)

// sharePod returns the i-th Pod of ReplicaSets of five Pods each, decoded from protobuf so that no
// two Pods share memory, as a client decodes them: Pods of one ReplicaSet differ in name, uid, node,
// IP, times and the name of their kube-api-access volume.
func sharePod(t testing.TB, i int) *corev1.Pod {
	t.Helper()
	d := strconv.Itoa(i / 5)
	id := strconv.Itoa(i)
	yes := true
	grace, tolerate := int64(30), int64(300)
	created := metav1.NewTime(time.Unix(1760000000+int64(i), 0))
	apiAccess := corev1.VolumeMount{Name: "kube-api-access-" + id, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "app-" + d + "-" + id, Namespace: "team-a", UID: types.UID("uid-" + id), CreationTimestamp: created,
			Labels:          map[string]string{"app": "app-" + d, "pod-template-hash": "h" + d},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "app-" + d, UID: types.UID("rs-" + d), Controller: &yes}},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "app", Image: "registry.example.com/app-" + d + ":1.0",
				Env: []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "info"}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
				},
				LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}}, PeriodSeconds: 10},
				VolumeMounts:  []corev1.VolumeMount{apiAccess},
			}},
			NodeName: "node-" + id, TerminationGracePeriodSeconds: &grace,
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerate},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerate},
			},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0." + id, StartTime: &created},
	}
	return redecode(t, p)
}

// redecode returns p encoded and decoded again, in memory of its own.
func redecode(t testing.TB, p *corev1.Pod) *corev1.Pod {
	t.Helper()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	out := &corev1.Pod{}
	if err := out.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	return out
}

// fresh returns a copy of s in memory of its own, as a decoder allocates strings.
func fresh(s string) string { return string([]byte(s)) }

// sameData reports whether a and b are one copy of a string.
func sameData(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func mapID[M ~map[K]V, K comparable, V any](m M) unsafe.Pointer {
	return reflect.ValueOf(m).UnsafePointer()
}

func sliceID[S ~[]E, E any](s S) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// Pods of one template queued for the cache share their equal parts and keep their content; parts
// that differ are not shared.
func TestQueueSharesEqualParts(t *testing.T) {
	q := newEventQueue(noopMetric{}, nil)
	a, b, other := sharePod(t, 0), sharePod(t, 1), sharePod(t, 5)
	wantA, wantB := sharePod(t, 0), sharePod(t, 1)
	for _, p := range []*corev1.Pod{a, b, other} {
		_ = q.Add(p)
	}
	if !reflect.DeepEqual(a, wantA) || !reflect.DeepEqual(b, wantB) {
		t.Fatal("sharing changed an object's content")
	}
	ca, cb := a.Spec.Containers[0], b.Spec.Containers[0]
	for what, pair := range map[string][2]unsafe.Pointer{
		"requests":           {mapID(ca.Resources.Requests), mapID(cb.Resources.Requests)},
		"limits":             {mapID(ca.Resources.Limits), mapID(cb.Resources.Limits)},
		"labels":             {mapID(a.Labels), mapID(b.Labels)},
		"env":                {sliceID(ca.Env), sliceID(cb.Env)},
		"tolerations":        {sliceID(a.Spec.Tolerations), sliceID(b.Spec.Tolerations)},
		"owner references":   {sliceID(a.OwnerReferences), sliceID(b.OwnerReferences)},
		"liveness probe":     {unsafe.Pointer(ca.LivenessProbe), unsafe.Pointer(cb.LivenessProbe)},
		"grace period":       {unsafe.Pointer(a.Spec.TerminationGracePeriodSeconds), unsafe.Pointer(b.Spec.TerminationGracePeriodSeconds)},
		"image":              {unsafe.Pointer(unsafe.StringData(ca.Image)), unsafe.Pointer(unsafe.StringData(cb.Image))},
		"volume mounts (no)": {sliceID(ca.VolumeMounts), sliceID(cb.VolumeMounts)},
		"containers (no)":    {sliceID(a.Spec.Containers), sliceID(b.Spec.Containers)},
		"start time (no)":    {unsafe.Pointer(a.Status.StartTime), unsafe.Pointer(b.Status.StartTime)},
	} {
		want := !strings.HasSuffix(what, "(no)")
		if shared := pair[0] == pair[1]; shared != want {
			t.Errorf("%s: shared %v, want %v", what, shared, want)
		}
	}
	// Parts common to every template are shared across templates; the template's own are not.
	co := other.Spec.Containers[0]
	if mapID(co.Resources.Requests) != mapID(ca.Resources.Requests) || sliceID(other.Spec.Tolerations) != sliceID(a.Spec.Tolerations) {
		t.Error("parts common to all templates are not shared")
	}
	if mapID(other.Labels) == mapID(a.Labels) {
		t.Error("label maps of different templates are shared")
	}
	// A shared slice has no room to grow into: appending to it copies.
	if cap(cb.Env) != len(cb.Env) {
		t.Errorf("shared slice has capacity %d for %d elements", cap(cb.Env), len(cb.Env))
	}
}

// A deep copy of a cached object owns all of its memory: changing it changes no other cached object.
func TestSharedObjectsDeepCopyIndependent(t *testing.T) {
	q := newEventQueue(noopMetric{}, nil)
	a, b := sharePod(t, 0), sharePod(t, 1)
	_ = q.Add(a)
	_ = q.Add(b)
	want := sharePod(t, 0)
	c := b.DeepCopy()
	c.Labels["app"] = "changed"
	c.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("2")
	c.Spec.Containers[0].Env[0].Value = "debug"
	c.Spec.Containers[0].LivenessProbe.PeriodSeconds = 99
	c.Spec.Tolerations[0].Key = "changed"
	*c.Spec.Tolerations[1].TolerationSeconds = 1
	*c.Spec.TerminationGracePeriodSeconds = 1
	*c.OwnerReferences[0].Controller = false
	c.Spec.Containers[0].Env = append(c.Spec.Containers[0].Env, corev1.EnvVar{Name: "X"})
	if !reflect.DeepEqual(a, want) {
		t.Fatal("changing a deep copy of one cached object changed another")
	}
	if b.Labels["app"] != "app-0" {
		t.Fatal("changing a deep copy changed its original")
	}
}

// Objects that are not Pods share too: any struct type, with maps of any key, arrays, recursive types,
// interfaces (compared by identity), times and unexported fields.
func TestShareAnyType(t *testing.T) {
	type node struct {
		Name     string
		Children []*node
		Next     *node
	}
	type thing struct {
		ID     int
		Counts map[int32]string
		Floats map[float64]int
		Grid   [2][3]int16
		Tree   *node
		Any    any
		When   metav1.Time
		Pad    struct {
			A int8
			B int64
		}
		Pads []struct {
			A int8
			B int64
		}
		hidden   []string
		Quantity resource.Quantity
	}
	mk := func(id int) *thing {
		leaf := &node{Name: string([]byte("leaf"))}
		return &thing{
			ID: id, Counts: map[int32]string{1: string([]byte("one"))}, Floats: map[float64]int{math.Copysign(0, -1): 1},
			Grid: [2][3]int16{{1, 2, 3}}, Tree: &node{Name: string([]byte("root")), Children: []*node{leaf}, Next: &node{Name: string([]byte("n"))}},
			Any: &corev1.Pod{}, When: metav1.NewTime(time.Unix(1, 0).Local()), Pad: struct {
				A int8
				B int64
			}{1, 2},
			Pads: []struct {
				A int8
				B int64
			}{{1, 2}}, hidden: []string{string([]byte("h"))}, Quantity: resource.MustParse("1Gi"),
		}
	}
	sh := newSharer(nil)
	a, b := mk(1), mk(2)
	sh.shareObject(a)
	sh.shareObject(b)
	if !reflect.DeepEqual(b, mk(2)) {
		t.Fatalf("sharing changed the object: %+v", b)
	}
	if mapID(a.Counts) != mapID(b.Counts) || a.Tree != b.Tree || sliceID(a.hidden) != sliceID(b.hidden) || sliceID(a.Pads) != sliceID(b.Pads) {
		t.Error("equal parts of a struct type are not shared")
	}
	if mapID(a.Floats) == mapID(b.Floats) || a.Any == b.Any {
		t.Error("maps with float keys and interface values must not be shared")
	}
}

// A pointer cycle, which no decoder makes but a transform might, leaves the object as it is instead of
// recursing forever.
func TestShareSurvivesCycles(t *testing.T) {
	type ring struct {
		Name string
		Next *ring
	}
	cycle := func() *ring {
		a := &ring{Name: fresh("a")}
		a.Next = &ring{Name: fresh("b"), Next: a}
		return a
	}
	sh := newSharer(nil)
	a, b := cycle(), cycle()
	sh.shareObject(a)
	sh.shareObject(b) // walked against a, round both cycles
	if b.Next.Next != b || b.Next.Name != "b" || b.Name != "a" || a.Next.Next != a {
		t.Fatal("cyclic object changed")
	}
	unstructuredCycle := func() (*unstructured.Unstructured, map[string]any) {
		m := map[string]any{"name": fresh("x")}
		m["self"] = m
		return &unstructured.Unstructured{Object: map[string]any{"spec": m}}, m
	}
	u1, _ := unstructuredCycle()
	u2, m := unstructuredCycle()
	sh.shareObject(u1)
	sh.shareObject(u2)
	if m["name"] != "x" || reflect.ValueOf(m["self"]).UnsafePointer() != reflect.ValueOf(m).UnsafePointer() {
		t.Fatal("cyclic unstructured object changed")
	}
	// The sharer still works afterwards.
	p1, p2 := sharePod(t, 0), sharePod(t, 1)
	sh.shareObject(p1)
	sh.shareObject(p2)
	if mapID(p1.Labels) != mapID(p2.Labels) {
		t.Fatal("no sharing after a cyclic object")
	}
}

// Unstructured objects share their strings, maps and slices (not their maps' keys) and keep their
// content; their top-level content map stays their own.
func TestQueueSharesUnstructuredParts(t *testing.T) {
	q := newEventQueue(noopMetric{}, nil)
	widget := func(name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": fresh("example.com/v1"), "kind": fresh("Widget"),
			"metadata": map[string]any{"name": fresh(name), "namespace": fresh("ns"), "labels": map[string]any{"app": fresh("w")},
				"finalizers": []any{fresh("example.com/cleanup")}},
			"spec": map[string]any{"replicas": int64(3), "ratio": 0.5, "paused": false, "image": fresh("img"), "none": nil},
		}}
	}
	a, b := widget("a"), widget("b")
	_ = q.Add(a)
	_ = q.Add(b)
	if want := widget("b"); !reflect.DeepEqual(b.Object, want.Object) {
		t.Fatalf("object changed: %v", b.Object)
	}
	if !sameData(a.GetNamespace(), b.GetNamespace()) || !sameData(a.GetKind(), b.GetKind()) {
		t.Error("unstructured strings not shared")
	}
	ma, mb := a.Object["metadata"].(map[string]any), b.Object["metadata"].(map[string]any)
	if reflect.ValueOf(ma["labels"]).UnsafePointer() != reflect.ValueOf(mb["labels"]).UnsafePointer() ||
		reflect.ValueOf(a.Object["spec"]).UnsafePointer() != reflect.ValueOf(b.Object["spec"]).UnsafePointer() {
		t.Error("equal unstructured maps not shared")
	}
	if sliceID(ma["finalizers"].([]any)) != sliceID(mb["finalizers"].([]any)) {
		t.Error("equal unstructured slices not shared")
	}
	if reflect.ValueOf(ma).UnsafePointer() == reflect.ValueOf(mb).UnsafePointer() {
		t.Error("different metadata maps shared")
	}
	c := b.DeepCopy()
	unstructured.SetNestedField(c.Object, "changed", "spec", "image")
	c.SetLabels(map[string]string{"app": "changed"})
	if !reflect.DeepEqual(a.Object, widget("a").Object) {
		t.Error("changing a deep copy changed another cached object")
	}
}

// An informer shares equal parts unless DisableSharing.
func TestDisableSharingOption(t *testing.T) {
	for _, disable := range []bool{false, true} {
		inf := NewSharedIndexInformerWithOptions(&ListWatch{}, &corev1.Pod{}, SharedIndexInformerOptions{DisableSharing: disable}).(*sharedIndexInformer)
		a, b := sharePod(t, 0), sharePod(t, 1)
		_ = inf.queue.Add(a)
		_ = inf.queue.Add(b)
		if shared := mapID(a.Spec.Containers[0].Resources.Requests) == mapID(b.Spec.Containers[0].Resources.Requests); shared == disable {
			t.Errorf("DisableSharing %v: equal resource lists shared %v", disable, shared)
		}
	}
}

// SetDisableSharing turns sharing off (and on again) before Run, and fails afterwards.
func TestSetDisableSharing(t *testing.T) {
	inf := NewSharedIndexInformerWithOptions(&ListWatch{
		ListFunc:  func(metav1.ListOptions) (runtime.Object, error) { return &corev1.PodList{}, nil },
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}, &corev1.Pod{}, SharedIndexInformerOptions{DisableWatchList: true})
	if inf.(*sharedIndexInformer).queue.sharer == nil {
		t.Fatal("parts not shared by default")
	}
	if err := inf.SetDisableSharing(true); err != nil || inf.(*sharedIndexInformer).queue.sharer != nil {
		t.Fatalf("SetDisableSharing(true): %v; sharing still on", err)
	}
	if err := inf.SetDisableSharing(false); err != nil || inf.(*sharedIndexInformer).queue.sharer == nil {
		t.Fatalf("SetDisableSharing(false): %v; sharing still off", err)
	}
	startInformer(t, inf)
	eventually(t, "sync", inf.HasSynced)
	if err := inf.SetDisableSharing(false); err == nil {
		t.Fatal("SetDisableSharing succeeded after Run")
	}
}

// An informer whose mutation detector runs does not share parts, so that a report names only the
// objects actually modified.
func TestNoSharingUnderMutationDetector(t *testing.T) {
	detector := NewMutationDetector("pods", MutationDetectorOptions{})
	inf := NewSharedIndexInformerWithOptions(&ListWatch{}, &corev1.Pod{}, SharedIndexInformerOptions{MutationDetector: detector})
	if inf.(*sharedIndexInformer).queue.sharer != nil {
		t.Fatal("parts shared while a mutation detector runs")
	}
	if _ = inf.SetDisableSharing(false); inf.(*sharedIndexInformer).queue.sharer != nil {
		t.Fatal("SetDisableSharing(false) turned sharing on while a mutation detector runs")
	}
}

// BenchmarkShareObject measures sharing the parts of one decoded Pod of a ReplicaSet of five, against
// decoding it (BenchmarkShareObject/decode).
func BenchmarkShareObject(b *testing.B) {
	const n = 20000
	pods := make([]*corev1.Pod, n)
	encoded := make([][]byte, n)
	for i := range pods {
		pods[i] = sharePod(b, i)
		encoded[i], _ = pods[i].Marshal()
	}
	b.Run("share", func(b *testing.B) {
		sh := newSharer(nil)
		i := 0
		for b.Loop() {
			if i == n {
				b.StopTimer()
				for j := range pods {
					pods[j] = sharePod(b, j)
				}
				i = 0
				b.StartTimer()
			}
			sh.shareObject(pods[i])
			i++
		}
	})
	b.Run("decode", func(b *testing.B) {
		i := 0
		for b.Loop() {
			var p corev1.Pod
			_ = p.Unmarshal(encoded[i%n])
			i++
		}
	})
}

// BenchmarkShareUpdate measures walking a watch update (a decoded Pod equal to the one cached) against
// its cached version, when both are in the processor's caches (16 Pods, walked in turn) and when
// they are not (20,000 Pods), as for a burst of updates to a large cache.
func BenchmarkShareUpdate(b *testing.B) {
	for _, n := range []int{16, 20000} {
		b.Run("pods="+strconv.Itoa(n), func(b *testing.B) {
			cached, updates := make([]*corev1.Pod, n), make([]*corev1.Pod, n)
			for i := range cached {
				cached[i] = sharePod(b, i)
			}
			sh, s := newSharer(nil), shapeOf(reflect.TypeFor[corev1.Pod]())
			i := 0
			for b.Loop() {
				if i%n == 0 {
					b.StopTimer()
					for j := range updates {
						updates[j] = redecode(b, cached[j])
					}
					b.StartTimer()
				}
				sh.align(unsafe.Pointer(updates[i%n]), unsafe.Pointer(cached[i%n]), s)
				i++
			}
		})
	}
}

// An informer prepares listed objects (trims and shares them) page by page while the list goes on, not
// once the whole list is in.
func TestInformerPreparesListedPagesAsTheyArrive(t *testing.T) {
	transformed := make(chan struct{}, 3)
	preparedEarly := make(chan bool, 1)
	lw := &ListWatch{
		ListFunc: func(options metav1.ListOptions) (runtime.Object, error) {
			if options.Continue == "" {
				return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1", Continue: "2"},
					Items: []corev1.Pod{*sharePod(t, 0), *sharePod(t, 1)}}, nil
			}
			// The last page is served only once the first page's objects were prepared.
			timeout := time.After(10 * time.Second)
			for range 2 {
				select {
				case <-transformed:
				case <-timeout:
					preparedEarly <- false
					return nil, context.DeadlineExceeded
				}
			}
			preparedEarly <- true
			return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: []corev1.Pod{*sharePod(t, 2)}}, nil
		},
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	inf := NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, SharedIndexInformerOptions{DisableWatchList: true})
	_ = inf.SetTransform(func(obj any) (any, error) {
		transformed <- struct{}{}
		return obj, nil
	})
	startInformer(t, inf)
	if !<-preparedEarly {
		t.Fatal("the first page's objects were not prepared while the list went on")
	}
	eventually(t, "sync", inf.HasSynced)
	a, _, _ := inf.GetStore().GetByKey("team-a/app-0-0")
	b, _, _ := inf.GetStore().GetByKey("team-a/app-0-1")
	if a == nil || b == nil || sliceID(a.(*corev1.Pod).Spec.Tolerations) != sliceID(b.(*corev1.Pod).Spec.Tolerations) {
		t.Fatal("listed objects not shared")
	}
}

// A new version of a cached object is walked against the cached version, not against the object
// shared last or its owner's last: its own parts that did not change are shared.
func TestUpdateSharesWithCachedVersion(t *testing.T) {
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	sh := newSharer(store)
	old := sharePod(t, 0)
	sh.shareObject(old)
	_ = store.Add(old)
	sibling := sharePod(t, 1) // same owner, shared last
	sh.shareObject(sibling)
	_ = store.Add(sibling)
	updated := sharePod(t, 0)
	updated.Status.Phase = corev1.PodSucceeded
	sh.shareObject(updated)
	if mapID(updated.Labels) != mapID(old.Labels) || updated.Status.StartTime != old.Status.StartTime ||
		sliceID(updated.Spec.Containers) != sliceID(old.Spec.Containers) || !sameData(updated.Name, old.Name) {
		t.Fatal("an update does not share the unchanged parts of the cached version")
	}
	if updated.Status.Phase != corev1.PodSucceeded || old.Status.Phase != corev1.PodRunning {
		t.Fatal("the changed part was shared")
	}
}

// A new object is walked against the object cached last with the same controller owner, so a Pod
// created among other templates' Pods shares its template's parts.
func TestNewObjectSharesWithItsOwnersLast(t *testing.T) {
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	sh := newSharer(store)
	for _, i := range []int{0, 5} { // templates 0 and 1
		p := sharePod(t, i)
		sh.shareObject(p)
		_ = store.Add(p)
	}
	sibling, _, _ := store.GetByKey("team-a/app-0-0")
	p := sharePod(t, 1) // template 0, after template 1's Pod
	sh.shareObject(p)
	if mapID(p.Labels) != mapID(sibling.(*corev1.Pod).Labels) {
		t.Fatal("a new Pod does not share its label map with its owner's last Pod")
	}
	// The owners remembered stay bounded.
	for i := range maxOwners + 10 {
		p := sharePod(t, 0)
		p.OwnerReferences[0].UID = types.UID("owner-" + strconv.Itoa(i))
		sh.shareObject(p)
	}
	if len(sh.byOwner) > maxOwners {
		t.Fatalf("%d owners remembered", len(sh.byOwner))
	}
}

// An informer walks a watch update against the version it has cached.
func TestInformerSharesUpdatesWithCachedVersion(t *testing.T) {
	w := watch.NewFake()
	lw := &ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) {
			return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: []corev1.Pod{*sharePod(t, 0), *sharePod(t, 5)}}, nil
		},
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return w, nil },
	}
	inf := NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, SharedIndexInformerOptions{DisableWatchList: true})
	startInformer(t, inf)
	eventually(t, "sync", inf.HasSynced)
	old, _, _ := inf.GetStore().GetByKey("team-a/app-0-0")
	updated := sharePod(t, 0)
	updated.ResourceVersion = "2"
	w.Modify(updated)
	eventually(t, "update", func() bool {
		cur, _, _ := inf.GetStore().GetByKey("team-a/app-0-0")
		return cur.(*corev1.Pod).ResourceVersion == "2"
	})
	if mapID(updated.Labels) != mapID(old.(*corev1.Pod).Labels) {
		t.Fatal("a watch update does not share its labels with the cached version")
	}
}

// The sharer looks in the store only when no writer holds or waits for its lock.
func TestExemplarLookupDoesNotWaitForWriters(t *testing.T) {
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	_ = store.Add(sharePod(t, 0))
	store.items.lock.Lock()
	_, ok := store.items.getUncontended("team-a/app-0-0")
	store.items.lock.Unlock()
	if ok {
		t.Fatal("read the store while a writer held it")
	}
	if _, ok := store.items.getUncontended("team-a/app-0-0"); !ok {
		t.Fatal("did not read an uncontended store")
	}
}

// variedPod returns the i-th of a random mix of Pods: sharePod's ReplicaSets, each Pod changed at
// random in ways that leave parts equal, unequal, empty, nil or of other lengths than its exemplar's.
func variedPod(t testing.TB, rng *rand.Rand, i int) *corev1.Pod {
	p := sharePod(t, rng.IntN(4*i+5))
	c := &p.Spec.Containers[0]
	switch rng.IntN(8) {
	case 0:
		p.Labels["extra"] = strconv.Itoa(rng.IntN(3))
	case 1:
		p.Labels = nil
	case 2:
		c.Env = append(c.Env, corev1.EnvVar{Name: "N", Value: strconv.Itoa(rng.IntN(2))})
	case 3:
		c.Env = []corev1.EnvVar{}
	case 4:
		c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse(strconv.Itoa(rng.IntN(3)+1) + "00m")
	case 5:
		p.Spec.Containers = append(p.Spec.Containers, *c.DeepCopy())
	case 6:
		c.LivenessProbe = nil
	case 7:
		p.Spec.Tolerations = p.Spec.Tolerations[:rng.IntN(2)]
	}
	return redecode(t, p)
}

// Sharing never changes what an object holds, whatever its exemplar: random Pods, as typed and as
// unstructured objects, read the same after sharing as their twins that were never shared.
func TestSharingKeepsContent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	unstructuredStore := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	typed, untyped := newSharer(store), newSharer(unstructuredStore)
	twins := map[string]*corev1.Pod{}
	for i := range 400 {
		seed := rng.Uint64()
		p, twin := variedPod(t, rand.New(rand.NewPCG(seed, 0)), i), variedPod(t, rand.New(rand.NewPCG(seed, 0)), i)
		typed.shareObject(p)
		if !reflect.DeepEqual(p, twin) {
			t.Fatalf("object %d changed by sharing", i)
		}
		_ = store.Add(p)
		twins[p.Name] = twin

		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(twin)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: content}
		want := u.DeepCopy()
		untyped.shareObject(u)
		if !reflect.DeepEqual(u.Object, want.Object) {
			t.Fatalf("unstructured object %d changed by sharing", i)
		}
		_ = unstructuredStore.Add(u)
	}
	// Every object cached earlier still reads as it did.
	for _, obj := range store.List() {
		if p := obj.(*corev1.Pod); !reflect.DeepEqual(p, twins[p.Name]) {
			t.Fatalf("%s changed after later objects were shared", p.Name)
		}
	}
}

// A deleted object is not cached, so it is neither shared nor an exemplar.
func TestDeletedObjectsAreNotShared(t *testing.T) {
	q := newEventQueue(noopMetric{}, nil)
	a, gone, b := sharePod(t, 0), sharePod(t, 1), sharePod(t, 2)
	_ = q.Add(a)
	_ = q.Delete(gone)
	_ = q.Add(b)
	if mapID(gone.Labels) == mapID(a.Labels) || q.sharer.last != b {
		t.Fatal("a deleted object was shared or became an exemplar")
	}
	if mapID(b.Labels) != mapID(a.Labels) {
		t.Fatal("the next object was not shared with the last cached one")
	}
}

// An object sent again while the store already holds it (the same pointer) is left alone: it was
// shared when it first arrived, and readers may be reading it.
func TestObjectAlreadyCachedIsLeftAlone(t *testing.T) {
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}, nil)
	sh := newSharer(store)
	other, p := sharePod(t, 0), sharePod(t, 1) // one template: equal labels
	sh.shareObject(other)
	_ = store.Add(p)
	labels := mapID(p.Labels)
	sh.shareObject(p)
	if mapID(p.Labels) != labels {
		t.Fatal("a cached object was rewritten")
	}
}
