package controller

import (
	"context"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2/ktesting"

	kubeinformers "github.com/kgen-dev/kgen/builtin/informers"
	kubefake "github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	"github.com/kgen-dev/kgen/runtime/events"
	core "github.com/kgen-dev/kgen/runtime/testing"

	stablev1 "example.com/crd/api/stable/v1"
	"example.com/crd/generated/clientset/versioned/fake"
	"example.com/crd/generated/informers/externalversions"
)

// fixture is a controller over fake clientsets whose informers' stores are seeded directly, in the style
// of sample-controller's tests: syncHandler runs once and the test checks the clients' actions.
type fixture struct {
	t        *testing.T
	kube     *kubefake.Clientset
	crd      *fake.Clientset
	recorder *events.FakeRecorder
	c        *Controller
}

func newFixture(t *testing.T, cronTabs []*stablev1.CronTab, cronJobs []*batchv1.CronJob) *fixture {
	t.Helper()
	var kubeObjects, crdObjects []runtime.Object
	for _, ct := range cronTabs {
		crdObjects = append(crdObjects, ct)
	}
	for _, cj := range cronJobs {
		kubeObjects = append(kubeObjects, cj)
	}
	f := &fixture{t: t, kube: kubefake.NewSimpleClientset(kubeObjects...), crd: fake.NewSimpleClientset(crdObjects...),
		recorder: events.NewFakeRecorder(10)}
	kubeFactory := kubeinformers.NewSharedInformerFactory(f.kube, 0)
	crdFactory := externalversions.NewSharedInformerFactory(f.crd, 0)
	_, ctx := ktesting.NewTestContext(t)
	c, err := NewController(ctx, f.kube, f.crd, kubeFactory.Batch().V1().CronJobs(), crdFactory.Stable().V1().CronTabs(), f.recorder)
	if err != nil {
		t.Fatal(err)
	}
	for _, ct := range cronTabs {
		crdFactory.Stable().V1().CronTabs().Informer().GetIndexer().Add(ct)
	}
	for _, cj := range cronJobs {
		kubeFactory.Batch().V1().CronJobs().Informer().GetIndexer().Add(cj)
	}
	f.c = c
	f.kube.ClearActions()
	f.crd.ClearActions()
	return f
}

func newCronTab(name, image string) *stablev1.CronTab {
	return &stablev1.CronTab{
		TypeMeta:   metav1.TypeMeta{APIVersion: stablev1.SchemeGroupVersion.String(), Kind: "CronTab"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID(name + "-uid"), Generation: 1},
		Spec:       stablev1.CronTabSpec{CronSpec: "*/5 * * * *", Image: image, Replicas: 2},
	}
}

// cronJobFor is the CronJob the controller would apply for ct, as the API server would store it.
func cronJobFor(ct *stablev1.CronTab) *batchv1.CronJob {
	parallelism := replicas(ct)
	job := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: ct.Name, Namespace: ct.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ct, stablev1.SchemeGroupVersion.WithKind("CronTab"))}}}
	job.Spec.Schedule = ct.Spec.CronSpec
	job.Spec.JobTemplate.Spec.Parallelism = &parallelism
	job.Spec.JobTemplate.Spec.Template.Spec.Containers = []corev1.Container{{Name: "crontab", Image: ct.Spec.Image}}
	return job
}

func (f *fixture) sync(key string) error {
	_, ctx := ktesting.NewTestContext(f.t)
	return f.c.syncHandler(ctx, key)
}

// verbs lists the actions' verb and resource, with the subresource and patch type where they tell more.
func verbs(actions []core.Action) []string {
	var out []string
	for _, a := range actions {
		s := a.GetVerb() + " " + a.GetResource().Resource
		if sub := a.GetSubresource(); sub != "" {
			s += "/" + sub
		}
		if p, ok := a.(core.PatchAction); ok {
			s += " " + string(p.GetPatchType())
		}
		out = append(out, s)
	}
	return out
}

func TestNewCronTabGetsItsCronJobAndStatus(t *testing.T) {
	ct := newCronTab("backup", "backup:1")
	f := newFixture(t, []*stablev1.CronTab{ct}, nil)
	if err := f.sync("default/backup"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(verbs(f.kube.Actions()), ", "); got != "patch cronjobs "+string(types.ApplyPatchType) {
		t.Fatalf("kube actions = %s, want one server-side apply of the CronJob", got)
	}
	patch := f.kube.Actions()[0].(core.PatchAction)
	for _, want := range []string{`"schedule":"*/5 * * * *"`, `"image":"backup:1"`, `"parallelism":2`, `"controller":true`, `"kind":"CronTab"`} {
		if !strings.Contains(string(patch.GetPatch()), want) {
			t.Errorf("apply body lacks %s: %s", want, patch.GetPatch())
		}
	}
	job, err := f.kube.BatchV1().CronJobs("default").Get(context.Background(), "backup", metav1.GetOptions{})
	if err != nil || !metav1.IsControlledBy(job, ct) {
		t.Fatalf("CronJob after apply = %+v, %v; want one controlled by the CronTab", job, err)
	}
	if got := strings.Join(verbs(f.crd.Actions()), ", "); got != "patch crontabs/status "+string(types.ApplyPatchType) {
		t.Fatalf("crd actions = %s, want one server-side apply of the status", got)
	}
	status := string(f.crd.Actions()[0].(core.PatchAction).GetPatch())
	if !strings.Contains(status, `"cronJobName":"backup"`) || !strings.Contains(status, `"observedGeneration":1`) || strings.Contains(status, `"spec"`) {
		t.Fatalf("status apply = %s, want only the status fields the controller owns", status)
	}
	expectEvent(t, f.recorder, "Normal Synced CronTab synced successfully")
}

func TestUpToDateCronTabWritesNothing(t *testing.T) {
	ct := newCronTab("backup", "backup:1")
	ct.Status = stablev1.CronTabStatus{CronJobName: "backup", ObservedGeneration: 1}
	f := newFixture(t, []*stablev1.CronTab{ct}, []*batchv1.CronJob{cronJobFor(ct)})
	if err := f.sync("default/backup"); err != nil {
		t.Fatal(err)
	}
	if a := append(f.kube.Actions(), f.crd.Actions()...); len(a) != 0 {
		t.Fatalf("actions = %v, want none", verbs(a))
	}
}

func TestChangedSpecIsApplied(t *testing.T) {
	ct := newCronTab("backup", "backup:2")
	ct.Status = stablev1.CronTabStatus{CronJobName: "backup", ObservedGeneration: 1}
	f := newFixture(t, []*stablev1.CronTab{ct}, []*batchv1.CronJob{cronJobFor(newCronTab("backup", "backup:1"))})
	if err := f.sync("default/backup"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(verbs(f.kube.Actions()), ", "); got != "patch cronjobs "+string(types.ApplyPatchType) {
		t.Fatalf("kube actions = %s, want one apply", got)
	}
	if !strings.Contains(string(f.kube.Actions()[0].(core.PatchAction).GetPatch()), `"image":"backup:2"`) {
		t.Fatal("the apply does not carry the new image")
	}
}

func TestCronJobControlledByAnotherIsLeftAlone(t *testing.T) {
	ct := newCronTab("report", "report:2")
	other := cronJobFor(ct)
	other.OwnerReferences = nil
	f := newFixture(t, []*stablev1.CronTab{ct}, []*batchv1.CronJob{other})
	err := f.sync("default/report")
	if err == nil || !strings.Contains(err.Error(), `CronJob "report" already exists`) {
		t.Fatalf("sync error = %v, want the conflict reported", err)
	}
	if a := append(f.kube.Actions(), f.crd.Actions()...); len(a) != 0 {
		t.Fatalf("actions = %v, want none", verbs(a))
	}
	expectEvent(t, f.recorder, `Warning ErrResourceExists CronJob "report" already exists and is not managed by CronTab`)
}

func TestDeletedCronTabIsForgotten(t *testing.T) {
	f := newFixture(t, nil, nil)
	if err := f.sync("default/gone"); err != nil {
		t.Fatalf("sync of a deleted CronTab = %v, want nil", err)
	}
	if err := f.sync("a/b/c"); err != nil {
		t.Fatalf("sync of a malformed key = %v, want nil (dropped)", err)
	}
}

func TestOwnedCronJobChangesQueueTheirCronTab(t *testing.T) {
	ct := newCronTab("backup", "backup:1")
	f := newFixture(t, []*stablev1.CronTab{ct}, nil)
	stranger := cronJobFor(ct)
	stranger.OwnerReferences[0].UID = "another-incarnation"
	f.c.handleObject(stranger)
	f.c.handleObject(&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "orphan", Namespace: "default"}})
	if n := f.c.workqueue.Len(); n != 0 {
		t.Fatalf("queue length = %d after changes to CronJobs no live CronTab controls, want 0", n)
	}
	f.c.handleObject(cronJobFor(ct))
	if n := f.c.workqueue.Len(); n != 1 {
		t.Fatalf("queue length = %d, want the owner queued", n)
	}
	if key, _ := f.c.workqueue.Get(); key != "default/backup" {
		t.Fatalf("queued %q, want default/backup", key)
	}
}

func expectEvent(t *testing.T, recorder *events.FakeRecorder, want string) {
	t.Helper()
	select {
	case got := <-recorder.Events:
		if got != want {
			t.Fatalf("event = %q, want %q", got, want)
		}
	default: // the fake recorder delivers synchronously
		t.Fatalf("no event, want %q", want)
	}
}
