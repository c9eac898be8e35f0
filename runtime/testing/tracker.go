package testing

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"
)

// ObjectTracker stores objects by resource, namespace and name and answers requests on them the way
// the API server does. Generated fake clientsets route every action to one through ObjectReaction.
type ObjectTracker interface {
	// Add stores an object as pre-existing server state (the items of a list one by one). The
	// resource is guessed from the object's kind. The object is kept as given, as client-go's
	// tracker keeps the fixtures a test seeds: no resourceVersion, uid or timestamps are filled
	// in, so objects read back (and the actions a controller records from them) equal the
	// fixtures. Writes through the clientset get server behaviour, resourceVersions included,
	// except that an owner reference may leave out the uid unless the tracker stores the owner it
	// names with one (seeded owners often have none, or live in another fake clientset).
	Add(obj runtime.Object) error

	// Get returns a copy of the object, or a NotFound error.
	Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error)

	// Create stores a new object, assigning name (from generateName), uid, creationTimestamp,
	// generation and resourceVersion; AlreadyExists if the name is taken.
	Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error

	// Update replaces an object; Conflict if its resourceVersion is stale, NotFound if absent.
	Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error

	// Patch stores an already patched object with the same rules as Update.
	Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error

	// Apply applies a server-side apply configuration, creating the object if needed.
	Apply(gvr schema.GroupVersionResource, applyConfiguration runtime.Object, ns string, opts ...metav1.PatchOptions) error

	// List returns the objects of the resource in the namespace ("" for all) that match the
	// options' selectors, as a list of kind gvk.Kind+"List".
	List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error)

	// Delete removes an object, or only marks it deleted while it has finalizers.
	Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error

	// Watch streams the changes to the resource in the namespace ("" for all) after the options'
	// resourceVersion.
	Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error)
}

// ObjectScheme creates and identifies the objects a tracker stores; *runtime.Scheme is one.
type ObjectScheme interface {
	runtime.ObjectCreater
	runtime.ObjectTyper
}

// defaultHistory is how many watch events each resource keeps for watches that start from an
// older resourceVersion; older starts fail with 410 Expired, as against a compacted server.
const defaultHistory = 10000

// tracker is the ObjectTracker. One lock serialises every operation, so each write gets the next
// value of a single resourceVersion counter and watchers see events in that order.
type tracker struct {
	scheme        ObjectScheme
	decoder       runtime.Decoder
	typeConverter managedfields.TypeConverter // nil: no field management
	historySize   int

	mu        sync.Mutex
	rv        int64 // the last resourceVersion assigned
	resources map[schema.GroupVersionResource]*resourceStore
	managers  map[managerKey]*managedfields.FieldManager
}

// ownerUIDOptional returns whether an owner reference of an object in namespace ns may leave out
// the uid: unless this tracker stores the owner it names with a uid, a test cannot supply one (the
// owner is a fixture seeded without a uid, or lives in another fake clientset), so only then the
// server's rule applies. Callers hold t.mu.
func (t *tracker) ownerUIDOptional(ns string) func(metav1.OwnerReference) bool {
	return func(ref metav1.OwnerReference) bool {
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			return false
		}
		for _, s := range t.resources {
			if s.kind.Group != gv.Group || s.kind.Kind != ref.Kind {
				continue
			}
			for _, key := range []types.NamespacedName{{Namespace: ns, Name: ref.Name}, {Name: ref.Name}} {
				if obj, ok := s.objects[key]; ok {
					if m, err := meta.Accessor(obj); err == nil && m.GetUID() != "" {
						return false
					}
				}
			}
		}
		return true
	}
}

// resourceStore is everything the tracker keeps for one resource.
type resourceStore struct {
	gvr      schema.GroupVersionResource
	kind     schema.GroupVersionKind // learned from stored objects, for lists and bookmarks
	objects  map[types.NamespacedName]runtime.Object
	history  eventRing
	watchers map[*watcher]struct{}
}

// event is one change to a resource.
type event struct {
	typ  watch.EventType
	rv   int64
	obj  runtime.Object // state after the change (for deletes: the final state)
	prev runtime.Object // state before the change; nil for adds
}

var _ ObjectTracker = &tracker{}

// NewObjectTracker returns an ObjectTracker over the scheme; the decoder decodes raw list items
// passed to Add.
func NewObjectTracker(scheme ObjectScheme, decoder runtime.Decoder) ObjectTracker {
	return newTracker(scheme, decoder, nil)
}

func newTracker(scheme ObjectScheme, decoder runtime.Decoder, tc managedfields.TypeConverter) *tracker {
	return &tracker{
		scheme:        scheme,
		decoder:       decoder,
		typeConverter: tc,
		historySize:   defaultHistory,
		rv:            1, // the empty store has a version too, so no list ever reports "0"
		resources:     map[schema.GroupVersionResource]*resourceStore{},
		managers:      map[managerKey]*managedfields.FieldManager{},
	}
}

// IsWatchListSemanticsUnSupported reports false: watches honour sendInitialEvents and end the
// initial events with the "k8s.io/initial-events-end" bookmark, so informers may stream lists.
func (t *tracker) IsWatchListSemanticsUnSupported() bool { return false }

// store returns the resource's store, creating it on first use. Callers hold t.mu.
func (t *tracker) store(gvr schema.GroupVersionResource) *resourceStore {
	s := t.resources[gvr]
	if s == nil {
		s = &resourceStore{
			gvr:      gvr,
			objects:  map[types.NamespacedName]runtime.Object{},
			watchers: map[*watcher]struct{}{},
		}
		t.resources[gvr] = s
	}
	return s
}

// commit records a change: it assigns the next resourceVersion to obj, stores it (or removes it for
// a delete), appends the event to the history and hands it to the watchers. Callers hold t.mu.
func (t *tracker) commit(s *resourceStore, typ watch.EventType, obj, prev runtime.Object) runtime.Object {
	return t.commitAs(s, typ, obj, prev, true)
}

// commitAs is commit; with stamp false the change still takes the next resourceVersion (for
// lists and watches) but obj keeps the resourceVersion it has, as fixtures do.
func (t *tracker) commitAs(s *resourceStore, typ watch.EventType, obj, prev runtime.Object, stamp bool) runtime.Object {
	t.rv++
	m, _ := meta.Accessor(obj)
	if stamp {
		m.SetResourceVersion(strconv.FormatInt(t.rv, 10))
	}
	key := types.NamespacedName{Namespace: m.GetNamespace(), Name: m.GetName()}
	if typ == watch.Deleted {
		delete(s.objects, key)
	} else {
		s.objects[key] = obj
	}
	if s.kind.Empty() {
		if gvks, err := t.kindsOf(obj); err == nil {
			s.kind = gvks[0]
		}
	}
	ev := event{typ: typ, rv: t.rv, obj: obj, prev: prev}
	s.history.push(ev, t.historySize)
	for w := range s.watchers {
		w.send(ev)
	}
	return obj.DeepCopyObject()
}

// eventRing keeps the latest events of a resource, up to a bound, oldest first.
type eventRing struct {
	buf   []event
	start int // index of the oldest event once buf is full
	// compactedRV is the resourceVersion of the newest event dropped.
	compactedRV int64
}

// push appends an event, dropping the oldest one when the ring holds max events.
func (r *eventRing) push(ev event, max int) {
	if len(r.buf) < max {
		r.buf = append(r.buf, ev)
		return
	}
	r.compactedRV = r.buf[r.start].rv
	r.buf[r.start] = ev
	r.start = (r.start + 1) % len(r.buf)
}

// at rebuilds the resource's objects as they were at resourceVersion rv by undoing the newer
// events. Callers hold the tracker lock and have checked rv against the history.
func (s *resourceStore) at(rv int64) map[types.NamespacedName]runtime.Object {
	objects := maps.Clone(s.objects)
	var newer []event
	s.history.after(rv, func(ev event) { newer = append(newer, ev) })
	for i := len(newer) - 1; i >= 0; i-- {
		ev := newer[i]
		m, _ := meta.Accessor(ev.obj)
		key := types.NamespacedName{Namespace: m.GetNamespace(), Name: m.GetName()}
		if ev.prev == nil {
			delete(objects, key)
		} else {
			objects[key] = ev.prev
		}
	}
	return objects
}

// after calls fn for every retained event newer than rv, oldest first.
func (r *eventRing) after(rv int64, fn func(event)) {
	for i := range r.buf {
		if ev := r.buf[(r.start+i)%len(r.buf)]; ev.rv > rv {
			fn(ev)
		}
	}
}

// Add implements ObjectTracker.
func (t *tracker) Add(obj runtime.Object) error {
	if meta.IsListType(obj) {
		items, err := meta.ExtractList(obj)
		if err != nil {
			return err
		}
		if errs := runtime.DecodeList(items, t.decoder); len(errs) > 0 {
			return errs[0]
		}
		for _, item := range items {
			if err := t.Add(item); err != nil {
				return err
			}
		}
		return nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	gvks, err := t.kindsOf(obj)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, gvk := range gvks {
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		if gvr.Version == runtime.APIVersionInternal {
			gvr.Version = ""
		}
		s := t.store(gvr)
		key := types.NamespacedName{Namespace: m.GetNamespace(), Name: m.GetName()}
		if _, exists := s.objects[key]; exists {
			return apierrors.NewAlreadyExists(gvr.GroupResource(), m.GetName())
		}
		t.commitAs(s, watch.Added, obj.DeepCopyObject(), nil, false)
	}
	return nil
}

// kindsOf returns the kinds an object is registered as, honouring an explicit TypeMeta on
// unstructured and partial-metadata objects.
func (t *tracker) kindsOf(obj runtime.Object) ([]schema.GroupVersionKind, error) {
	switch obj.(type) {
	case *unstructured.Unstructured, *metav1.PartialObjectMetadata:
		if gvk := obj.GetObjectKind().GroupVersionKind(); !gvk.Empty() {
			return []schema.GroupVersionKind{gvk}, nil
		}
	}
	gvks, _, err := t.scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	if len(gvks) == 0 {
		return nil, fmt.Errorf("no registered kinds for %T", obj)
	}
	return gvks, nil
}

// Get implements ObjectTracker.
func (t *tracker) Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error) {
	if _, err := single(opts); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	obj, err := t.get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	return obj.DeepCopyObject(), nil
}

// get returns the stored object (not a copy). Callers hold t.mu.
func (t *tracker) get(gvr schema.GroupVersionResource, ns, name string) (runtime.Object, error) {
	if s := t.resources[gvr]; s != nil {
		if obj, ok := s.objects[types.NamespacedName{Namespace: ns, Name: name}]; ok {
			return obj, nil
		}
	}
	return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
}

// prototype returns an object of the resource's kind, or nil when the tracker cannot tell it.
// Callers hold t.mu.
func (t *tracker) prototype(s *resourceStore, gvk schema.GroupVersionKind) runtime.Object {
	for _, obj := range s.objects {
		return obj
	}
	if gvk.Empty() {
		gvk = s.kind
	}
	if gvk.Empty() {
		gvk = t.guessKind(s.gvr)
	}
	if gvk.Empty() {
		return nil
	}
	obj, err := t.scheme.New(gvk)
	if err != nil {
		return nil
	}
	return obj
}

// continueToken is the decoded form of ListMeta.Continue.
type continueToken struct {
	RV    int64  `json:"rv"`
	Start string `json:"start"`
}

// List implements ObjectTracker, including limit and continue.
func (t *tracker) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	o, err := single(opts)
	if err != nil {
		return nil, err
	}
	sel, err := newSelection(ns, o)
	if err != nil {
		return nil, err
	}
	var cont continueToken
	if o.Continue != "" {
		raw, err := base64.RawURLEncoding.DecodeString(o.Continue)
		if err == nil {
			err = json.Unmarshal(raw, &cont)
		}
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("continue key is not valid: %v", err))
		}
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.store(gvr)
	readRV, err := t.listRV(s, o, cont)
	if err != nil {
		return nil, err
	}
	if gvk.Empty() {
		gvk = s.kind
	}
	if err := sel.checkFieldLabels(t.prototype(s, gvk)); err != nil {
		return nil, err
	}
	list, err := t.newList(gvk)
	if err != nil {
		return nil, err
	}
	objects := s.objects
	if readRV != t.rv {
		objects = s.at(readRV)
	}
	var items []runtime.Object
	next := ""
	for _, k := range sortedKeys(objects) {
		if cont.Start != "" && k.key < cont.Start {
			continue
		}
		obj := objects[k.name]
		if !sel.matches(obj) {
			continue
		}
		if o.Limit > 0 && int64(len(items)) == o.Limit {
			next = k.key
			break
		}
		items = append(items, obj.DeepCopyObject())
	}
	if err := meta.SetList(list, items); err != nil {
		return nil, err
	}
	if lm, err := meta.ListAccessor(list); err == nil {
		lm.SetResourceVersion(strconv.FormatInt(readRV, 10))
		if next != "" {
			raw, _ := json.Marshal(continueToken{RV: readRV, Start: next})
			lm.SetContinue(base64.RawURLEncoding.EncodeToString(raw))
		}
	}
	return list, nil
}

// listRV returns the resourceVersion a list reads at: the first page's for a continued list, the
// requested one for resourceVersionMatch=Exact, else the current one. Callers hold t.mu.
func (t *tracker) listRV(s *resourceStore, o metav1.ListOptions, cont continueToken) (int64, error) {
	if err := t.checkListRV(o); err != nil {
		return 0, err
	}
	rv := t.rv
	switch {
	case cont.RV != 0:
		rv = cont.RV
	case o.ResourceVersionMatch == metav1.ResourceVersionMatchExact:
		rv, _ = strconv.ParseInt(o.ResourceVersion, 10, 64)
	}
	if rv < s.history.compactedRV {
		return 0, &apierrors.StatusError{ErrStatus: *expired(rv, s.history.compactedRV)}
	}
	return rv, nil
}

// checkListRV rejects resourceVersions the tracker cannot serve. Callers hold t.mu.
func (t *tracker) checkListRV(o metav1.ListOptions) error {
	if o.ResourceVersion == "" || o.ResourceVersion == "0" {
		return nil
	}
	rv, err := strconv.ParseInt(o.ResourceVersion, 10, 64)
	if err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("invalid resource version %q", o.ResourceVersion))
	}
	if rv > t.rv {
		return apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", rv, t.rv), 1)
	}
	return nil
}

// newList returns an empty list for the item kind: the scheme's <Kind>List type, or an
// UnstructuredList when the scheme does not know it.
func (t *tracker) newList(gvk schema.GroupVersionKind) (runtime.Object, error) {
	listGVK := gvk
	listGVK.Kind += "List"
	if listGVK.Version == "" {
		listGVK.Version = runtime.APIVersionInternal
	}
	list, err := t.scheme.New(listGVK)
	if err != nil {
		if gvk.Kind == "" || !runtime.IsNotRegisteredError(err) {
			return nil, err
		}
		u := &unstructured.UnstructuredList{}
		u.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		return u, nil
	}
	if !meta.IsListType(list) {
		return nil, fmt.Errorf("%q is not a list type", listGVK.Kind)
	}
	return list, nil
}

// sortedKey is a stored object's name with its "namespace/name" key, the order lists use.
type sortedKey struct {
	key  string
	name types.NamespacedName
}

// sortedKeys returns the objects' keys in list order.
func sortedKeys(objects map[types.NamespacedName]runtime.Object) []sortedKey {
	keys := make([]sortedKey, 0, len(objects))
	for k := range objects {
		keys = append(keys, sortedKey{key: k.Namespace + "/" + k.Name, name: k})
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].key < keys[j].key })
	return keys
}

// single returns the optional single options argument of the variadic tracker methods.
func single[T any](opts []T) (T, error) {
	var zero T
	switch len(opts) {
	case 0:
		return zero, nil
	case 1:
		return opts[0], nil
	default:
		return zero, fmt.Errorf("expected at most one options argument, got %d", len(opts))
	}
}
