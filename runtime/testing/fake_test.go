package testing_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/rest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

var cmResource = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func TestActionConstructorsFillFields(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}
	cases := []struct {
		action           ktesting.Action
		verb, ns, subres string
	}{
		{ktesting.NewGetActionWithOptions(cmResource, "ns", "a", metav1.GetOptions{}), "get", "ns", ""},
		{ktesting.NewRootGetAction(cmResource, "a"), "get", "", ""},
		{ktesting.NewGetSubresourceAction(cmResource, "ns", "status", "a"), "get", "ns", "status"},
		{ktesting.NewListActionWithOptions(cmResource, schema.GroupVersionKind{Kind: "ConfigMap"}, "ns", metav1.ListOptions{}), "list", "ns", ""},
		{ktesting.NewCreateActionWithOptions(cmResource, "ns", cm, metav1.CreateOptions{}), "create", "ns", ""},
		{ktesting.NewCreateSubresourceActionWithOptions(cmResource, "a", "eviction", "ns", cm, metav1.CreateOptions{}), "create", "ns", "eviction"},
		{ktesting.NewUpdateActionWithOptions(cmResource, "ns", cm, metav1.UpdateOptions{}), "update", "ns", ""},
		{ktesting.NewUpdateSubresourceActionWithOptions(cmResource, "status", "ns", cm, metav1.UpdateOptions{}), "update", "ns", "status"},
		{ktesting.NewRootUpdateSubresourceActionWithOptions(cmResource, "status", cm, metav1.UpdateOptions{}), "update", "", "status"},
		{ktesting.NewPatchSubresourceActionWithOptions(cmResource, "ns", "a", types.MergePatchType, []byte("{}"), metav1.PatchOptions{}, "status"), "patch", "ns", "status"},
		{ktesting.NewRootPatchAction(cmResource, "a", types.MergePatchType, []byte("{}")), "patch", "", ""},
		{ktesting.NewDeleteActionWithOptions(cmResource, "ns", "a", metav1.DeleteOptions{}), "delete", "ns", ""},
		{ktesting.NewRootDeleteCollectionActionWithOptions(cmResource, metav1.DeleteOptions{}, metav1.ListOptions{}), "delete-collection", "", ""},
		{ktesting.NewWatchActionWithOptions(cmResource, "ns", metav1.ListOptions{ResourceVersion: "5"}), "watch", "ns", ""},
		{ktesting.NewRootWatchAction(cmResource, metav1.ListOptions{}), "watch", "", ""},
	}
	for _, c := range cases {
		a := c.action
		if a.GetVerb() != c.verb || a.GetNamespace() != c.ns || a.GetSubresource() != c.subres || a.GetResource() != cmResource {
			t.Errorf("%T: got verb=%q ns=%q sub=%q res=%v", a, a.GetVerb(), a.GetNamespace(), a.GetSubresource(), a.GetResource())
		}
	}
	w := ktesting.NewWatchActionWithOptions(cmResource, "ns", metav1.ListOptions{ResourceVersion: "5", LabelSelector: "a=b"})
	if r := w.GetWatchRestrictions(); r.ResourceVersion != "5" || r.Labels.String() != "a=b" || !r.Fields.Empty() {
		t.Errorf("watch restrictions = %+v", r)
	}
}

func TestExtractFromListOptionsNeverPanics(t *testing.T) {
	l, f, rv := ktesting.ExtractFromListOptions(metav1.ListOptions{LabelSelector: "a in (", FieldSelector: "x=y", ResourceVersion: "3"})
	if !l.Empty() && l.String() == "a in (" {
		t.Errorf("bad selector parsed: %v", l)
	}
	if f.String() != "x=y" || rv != "3" {
		t.Errorf("got %v %q", f, rv)
	}
	l, f, _ = ktesting.ExtractFromListOptions(nil)
	if !l.Empty() || !f.Empty() {
		t.Errorf("nil options should select everything")
	}
}

func TestActionMatchesAndDeepCopy(t *testing.T) {
	a := ktesting.NewUpdateSubresourceAction(cmResource, "status", "ns", &corev1.ConfigMap{})
	if !a.Matches("update", "configmaps") || !a.Matches("UPDATE", "configmaps/status") || a.Matches("update", "configmaps/scale") {
		t.Error("Matches")
	}
	cp := a.DeepCopy().(ktesting.UpdateActionImpl)
	cp.Object.(*corev1.ConfigMap).Name = "changed"
	if a.Object.(*corev1.ConfigMap).Name != "" {
		t.Error("DeepCopy shares the object")
	}
	p := ktesting.NewPatchAction(cmResource, "ns", "a", types.MergePatchType, []byte("{}"))
	pc := p.DeepCopy().(ktesting.PatchActionImpl)
	pc.Patch[0] = 'x'
	if string(p.Patch) != "{}" {
		t.Error("DeepCopy shares the patch")
	}
}

func TestFakeReactorChainOrderAndRecording(t *testing.T) {
	f := &ktesting.Fake{}
	var calls []string
	f.AddReactor("get", "configmaps", func(ktesting.Action) (bool, runtime.Object, error) {
		calls = append(calls, "added")
		return true, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "from-added"}}, nil
	})
	f.PrependReactor("*", "*", func(ktesting.Action) (bool, runtime.Object, error) {
		calls = append(calls, "prepended-pass")
		return false, nil, nil
	})
	f.PrependReactor("get", "configmaps/status", func(ktesting.Action) (bool, runtime.Object, error) {
		calls = append(calls, "status")
		return true, nil, errors.New("boom")
	})

	obj, err := f.Invokes(ktesting.NewGetAction(cmResource, "ns", "x"), nil)
	if err != nil || obj.(*corev1.ConfigMap).Name != "from-added" {
		t.Fatalf("got %v %v", obj, err)
	}
	if _, err := f.Invokes(ktesting.NewGetSubresourceAction(cmResource, "ns", "status", "x"), nil); err == nil || err.Error() != "boom" {
		t.Fatalf("status reactor not first: %v", err)
	}
	def := &corev1.Secret{}
	if obj, err := f.Invokes(ktesting.NewGetAction(schema.GroupVersionResource{Resource: "secrets"}, "ns", "x"), def); obj != def || err != nil {
		t.Fatalf("default object not returned: %v %v", obj, err)
	}
	want := []string{"prepended-pass", "added", "status", "prepended-pass"}
	if len(calls) != len(want) {
		t.Fatalf("calls = %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Fatalf("calls = %v, want %v", calls, want)
		}
	}
	if n := len(f.Actions()); n != 3 {
		t.Fatalf("recorded %d actions", n)
	}
	f.ClearActions()
	if n := len(f.Actions()); n != 0 {
		t.Fatalf("after clear: %d actions", n)
	}
}

func TestFakeRecordsCopiesOfActions(t *testing.T) {
	f := &ktesting.Fake{}
	f.AddReactor("create", "*", func(a ktesting.Action) (bool, runtime.Object, error) {
		a.(ktesting.CreateAction).GetObject().(*corev1.ConfigMap).Name = "mutated-by-reactor"
		return true, nil, nil
	})
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "orig"}}
	_, _ = f.Invokes(ktesting.NewCreateAction(cmResource, "ns", cm), nil)
	if cm.Name != "orig" || f.Actions()[0].(ktesting.CreateAction).GetObject().(*corev1.ConfigMap).Name != "orig" {
		t.Fatal("reactor mutation leaked into caller or record")
	}
}

func TestFakeWatchReactors(t *testing.T) {
	f := &ktesting.Fake{}
	if _, err := f.InvokesWatch(ktesting.NewWatchAction(cmResource, "", metav1.ListOptions{})); err == nil {
		t.Fatal("unhandled watch should fail")
	}
	refused := errors.New("refused")
	f.AddWatchReactor("*", func(ktesting.Action) (bool, watch.Interface, error) { return false, nil, refused })
	if _, err := f.InvokesWatch(ktesting.NewWatchAction(cmResource, "", metav1.ListOptions{})); !errors.Is(err, refused) {
		t.Fatalf("declining reactor's error lost: %v", err)
	}
	fw := watch.NewFake()
	f.AddWatchReactor("secrets", ktesting.DefaultWatchReactor(watch.NewFake(), nil))
	f.PrependWatchReactor("configmaps", ktesting.DefaultWatchReactor(fw, nil))
	w, err := f.InvokesWatch(ktesting.NewWatchAction(cmResource, "", metav1.ListOptions{}))
	if err != nil || w != fw {
		t.Fatalf("got %v %v", w, err)
	}
}

func TestFakeReactorsMayCallBack(t *testing.T) {
	f := &ktesting.Fake{}
	f.AddReactor("get", "configmaps", func(ktesting.Action) (bool, runtime.Object, error) {
		// A reactor that consults the fake again must not deadlock.
		return true, nil, errors.New(string(rune('0' + len(f.Actions()))))
	})
	if _, err := f.Invokes(ktesting.NewGetAction(cmResource, "ns", "x"), nil); err == nil || err.Error() != "1" {
		t.Fatalf("got %v", err)
	}
}

var _ ktesting.FakeClient = fakeClient{}

// fakeClient proves a struct embedding Fake plus Tracker satisfies FakeClient.
type fakeClient struct {
	*ktesting.Fake
}

func (fakeClient) Tracker() ktesting.ObjectTracker { return nil }

type fixedResponse string

func (r fixedResponse) DoRaw(context.Context) ([]byte, error) { return []byte(r), nil }

func (r fixedResponse) Stream(context.Context) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader(string(r))), nil
}

func TestFakeProxyReactors(t *testing.T) {
	f := &ktesting.Fake{}
	action := ktesting.NewProxyGetAction(schema.GroupVersionResource{Version: "v1", Resource: "services"}, "ns", "http", "svc", "80", "/healthz", nil)
	if f.InvokesProxy(action) != nil {
		t.Fatal("unhandled proxy returned a response")
	}
	f.AddProxyReactor("services", func(ktesting.Action) (bool, rest.ResponseWrapper, error) {
		return true, fixedResponse("second"), nil
	})
	f.PrependProxyReactor("*", func(ktesting.Action) (bool, rest.ResponseWrapper, error) {
		return true, nil, errors.New("errors pass the action on")
	})
	body, err := f.InvokesProxy(action).DoRaw(context.Background())
	if err != nil || string(body) != "second" {
		t.Fatalf("got %q %v", body, err)
	}
	if got := f.Actions()[1].(ktesting.ProxyGetAction); got.GetPath() != "/healthz" || got.GetName() != "svc" || got.GetPort() != "80" {
		t.Fatalf("recorded %+v", got)
	}
}

// TestFakeEmbedsRWMutex: as with client-go's Fake, a test holding the Fake's lock holds back every
// action until it unlocks, and reactors run without the lock, so they may call the Fake themselves.
func TestFakeEmbedsRWMutex(t *testing.T) {
	f := &ktesting.Fake{}
	f.AddReactor("get", "configmaps", func(a ktesting.Action) (bool, runtime.Object, error) {
		_ = f.Actions() // takes RLock: must not deadlock with the action being recorded
		return true, &corev1.ConfigMap{}, nil
	})
	var locker interface {
		Lock()
		Unlock()
		RLock()
		RUnlock()
		TryLock() bool
		TryRLock() bool
	} = f
	_ = f.RLocker()
	locker.Lock()
	if locker.TryRLock() {
		t.Fatal("TryRLock succeeded while the write lock was held")
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.Invokes(ktesting.NewGetAction(cmResource, "ns", "a"), nil)
		done <- err
	}()
	if n := len(f.ReactionChain); n != 1 { // read under our own lock
		t.Fatalf("chain has %d reactors", n)
	}
	locker.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !locker.TryRLock() {
		t.Fatal("TryRLock failed with no lock held")
	}
	locker.RUnlock()
	if n := len(f.Actions()); n != 1 {
		t.Fatalf("recorded %d actions, want 1", n)
	}
}
