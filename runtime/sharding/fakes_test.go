package sharding

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
	"github.com/kgen-dev/kgen/runtime/metadata"
)

var crontabs = Resource{Resource: schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}, Kind: "CronTab"}

// fakeLeases is an in-memory Lease client with compare-and-swap updates; err, when set, fails every call.
type fakeLeases struct {
	// LeaseInterface is nil: the replica never deletes, patches or applies Leases.
	coordinationv1client.LeaseInterface

	mu       sync.Mutex
	rv       int
	leases   map[string]*coordinationv1.Lease
	err      error
	watchers []*fakeLeaseWatch
	gets     int    // Get calls
	slowly   func() // when set, called by Update before it writes: a slow API server
}

type fakeLeaseWatch struct {
	*watch.RaceFreeFakeWatcher
	selector labels.Selector
}

// Watch delivers the changes made from now on to Leases matching the label selector.
func (f *fakeLeases) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	sel, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return nil, err
	}
	w := &fakeLeaseWatch{RaceFreeFakeWatcher: watch.NewRaceFreeFake(), selector: sel}
	f.watchers = append(f.watchers, w)
	return w, nil
}

// notifyLocked sends an event for l to every watcher it matches.
func (f *fakeLeases) notifyLocked(t watch.EventType, l *coordinationv1.Lease) {
	for _, w := range f.watchers {
		if w.selector.Matches(labels.Set(l.Labels)) {
			w.Action(t, l.DeepCopy())
		}
	}
}

func (f *fakeLeases) Get(_ context.Context, name string, _ metav1.GetOptions) (*coordinationv1.Lease, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets++
	if f.err != nil {
		return nil, f.err
	}
	l, ok := f.leases[name]
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}, name)
	}
	return l.DeepCopy(), nil
}

func (f *fakeLeases) List(_ context.Context, opts metav1.ListOptions) (*coordinationv1.LeaseList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	sel, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return nil, err
	}
	list := &coordinationv1.LeaseList{}
	for _, l := range f.leases {
		if sel.Matches(labels.Set(l.Labels)) {
			list.Items = append(list.Items, *l.DeepCopy())
		}
	}
	return list, nil
}

func (f *fakeLeases) Create(_ context.Context, l *coordinationv1.Lease, _ metav1.CreateOptions) (*coordinationv1.Lease, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	if f.leases == nil {
		f.leases = map[string]*coordinationv1.Lease{}
	}
	if _, ok := f.leases[l.Name]; ok {
		return nil, apierrors.NewAlreadyExists(schema.GroupResource{Resource: "leases"}, l.Name)
	}
	f.rv++
	l = l.DeepCopy()
	l.ResourceVersion = strconv.Itoa(f.rv)
	f.leases[l.Name] = l
	f.notifyLocked(watch.Added, l)
	return l.DeepCopy(), nil
}

func (f *fakeLeases) Update(_ context.Context, l *coordinationv1.Lease, _ metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	if f.slowly != nil {
		f.slowly()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	cur, ok := f.leases[l.Name]
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "leases"}, l.Name)
	}
	if cur.ResourceVersion != l.ResourceVersion {
		return nil, apierrors.NewConflict(schema.GroupResource{Resource: "leases"}, l.Name, nil)
	}
	f.rv++
	l = l.DeepCopy()
	l.ResourceVersion = strconv.Itoa(f.rv)
	f.leases[l.Name] = l
	f.notifyLocked(watch.Modified, l)
	return l.DeepCopy(), nil
}

func (f *fakeLeases) holder(name string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l := f.leases[name]; l != nil {
		return ptrString(l.Spec.HolderIdentity)
	}
	return ""
}

func (f *fakeLeases) fail(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}

// fakeMetadata holds the metadata of one resource's objects in memory; it supports Get, List and
// merge patches of labels with a resourceVersion precondition, which is all a replica uses.
type fakeMetadata struct {
	mu      sync.Mutex
	rv      int
	objects map[string]*metav1.PartialObjectMetadata // namespace/name
	patches int
}

func newFakeMetadata() *fakeMetadata {
	return &fakeMetadata{objects: map[string]*metav1.PartialObjectMetadata{}}
}

func (f *fakeMetadata) add(namespace, name string, lbls map[string]string) *metav1.PartialObjectMetadata {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rv++
	o := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: lbls,
		UID: types.UID(namespace + "/" + name), ResourceVersion: strconv.Itoa(f.rv)}}
	f.objects[namespace+"/"+name] = o
	return o.DeepCopy()
}

func (f *fakeMetadata) get(namespace, name string) *metav1.PartialObjectMetadata {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.objects[namespace+"/"+name].DeepCopy()
}

func (f *fakeMetadata) Resource(schema.GroupVersionResource) metadata.Getter {
	return &fakeResource{f: f}
}

type fakeResource struct {
	f         *fakeMetadata
	namespace string
}

func (r *fakeResource) Namespace(ns string) metadata.ResourceInterface {
	return &fakeResource{f: r.f, namespace: ns}
}

func (r *fakeResource) Delete(context.Context, string, metav1.DeleteOptions, ...string) error {
	panic("not used")
}

func (r *fakeResource) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	panic("not used")
}

func (r *fakeResource) Watch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	panic("not used")
}

func (r *fakeResource) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*metav1.PartialObjectMetadata, error) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	o, ok := r.f.objects[r.namespace+"/"+name]
	if !ok {
		return nil, apierrors.NewNotFound(crontabs.Resource.GroupResource(), name)
	}
	return o.DeepCopy(), nil
}

func (r *fakeResource) List(_ context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	sel, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return nil, err
	}
	list := &metav1.PartialObjectMetadataList{}
	for _, o := range r.f.objects {
		if sel.Matches(labels.Set(o.Labels)) {
			list.Items = append(list.Items, *o.DeepCopy())
		}
	}
	return list, nil
}

func (r *fakeResource) Patch(_ context.Context, name string, pt types.PatchType, data []byte, _ metav1.PatchOptions, _ ...string) (*metav1.PartialObjectMetadata, error) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	o, ok := r.f.objects[r.namespace+"/"+name]
	if !ok {
		return nil, apierrors.NewNotFound(crontabs.Resource.GroupResource(), name)
	}
	switch pt {
	case types.MergePatchType:
	case types.JSONPatchType:
		return r.f.jsonPatchLabelsLocked(o, data)
	default:
		return nil, apierrors.NewBadRequest("merge and JSON patches only")
	}
	var patch struct {
		Metadata struct {
			ResourceVersion string             `json:"resourceVersion"`
			Labels          map[string]*string `json:"labels"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &patch); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if patch.Metadata.ResourceVersion != "" && patch.Metadata.ResourceVersion != o.ResourceVersion {
		return nil, apierrors.NewConflict(crontabs.Resource.GroupResource(), name, nil)
	}
	if o.Labels == nil {
		o.Labels = map[string]string{}
	}
	for k, v := range patch.Metadata.Labels {
		if v == nil {
			delete(o.Labels, k)
		} else {
			o.Labels[k] = *v
		}
	}
	r.f.rv++
	r.f.patches++
	o.ResourceVersion = strconv.Itoa(r.f.rv)
	return o.DeepCopy(), nil
}

// jsonPatchLabelsLocked applies a JSON patch of test, add, replace and remove operations on labels,
// all or nothing; a failed test is 422 Unprocessable Entity, as kube-apiserver answers.
func (f *fakeMetadata) jsonPatchLabelsLocked(o *metav1.PartialObjectMetadata, data []byte) (*metav1.PartialObjectMetadata, error) {
	var ops []struct {
		Op, Path string
		Value    *string
	}
	if err := json.Unmarshal(data, &ops); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	lbls := maps.Clone(o.Labels)
	if lbls == nil {
		lbls = map[string]string{}
	}
	unprocessable := func(msg string) error {
		return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", msg, 0, false)
	}
	for _, op := range ops {
		key, ok := strings.CutPrefix(op.Path, "/metadata/labels/")
		if !ok {
			return nil, apierrors.NewBadRequest("label paths only: " + op.Path)
		}
		key = strings.NewReplacer("~1", "/", "~0", "~").Replace(key)
		v, exists := lbls[key]
		switch op.Op {
		case "test":
			if !exists || op.Value == nil || v != *op.Value {
				return nil, unprocessable("test failed: " + op.Path)
			}
		case "replace":
			if !exists {
				return nil, unprocessable("replace of a missing label: " + op.Path)
			}
			lbls[key] = *op.Value
		case "add":
			lbls[key] = *op.Value
		case "remove":
			if !exists {
				return nil, unprocessable("remove of a missing label: " + op.Path)
			}
			delete(lbls, key)
		default:
			return nil, apierrors.NewBadRequest("unsupported op " + op.Op)
		}
	}
	o.Labels = lbls
	f.rv++
	f.patches++
	o.ResourceVersion = strconv.Itoa(f.rv)
	return o.DeepCopy(), nil
}
