package testing

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
)

// errNoObject answers a create or update without a body.
var errNoObject = apierrors.NewBadRequest("the request has no object")

// writeOptions are the parts of Create/Update/Patch options a write honours.
type writeOptions struct {
	dryRun       bool
	fieldManager string
	// fieldsManaged is set when the caller (server-side apply) already updated managed fields.
	fieldsManaged bool
}

func isDryRun(dryRun []string) bool { return slices.Contains(dryRun, metav1.DryRunAll) }

// Create implements ObjectTracker.
func (t *tracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	o, err := single(opts)
	if err != nil {
		return err
	}
	_, err = t.create(gvr, obj, ns, o)
	return err
}

// Update implements ObjectTracker.
func (t *tracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	o, err := single(opts)
	if err != nil {
		return err
	}
	_, err = t.update(gvr, "", obj, ns, o)
	return err
}

// Patch implements ObjectTracker.
func (t *tracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := single(opts)
	if err != nil {
		return err
	}
	_, err = t.update(gvr, "", obj, ns, metav1.UpdateOptions{DryRun: o.DryRun, FieldManager: o.FieldManager})
	return err
}

// Delete implements ObjectTracker.
func (t *tracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	o, err := single(opts)
	if err != nil {
		return err
	}
	_, err = t.delete(gvr, ns, name, o)
	return err
}

// create stores a new object and returns the stored copy.
func (t *tracker) create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error) {
	if obj == nil {
		return nil, errNoObject
	}
	obj = obj.DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if err := checkNamespace(m, ns); err != nil {
		return nil, err
	}
	if m.GetResourceVersion() != "" {
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status:  metav1.StatusFailure,
			Code:    http.StatusInternalServerError,
			Message: "resourceVersion should not be set on objects to be created",
		}}
	}
	if m.GetName() == "" && m.GetGenerateName() == "" {
		return nil, t.invalid(gvr, obj, "", field.Required(field.NewPath("metadata", "name"), "name or generateName is required"))
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	return t.createLocked(gvr, obj, writeOptions{dryRun: isDryRun(opts.DryRun), fieldManager: opts.FieldManager})
}

// createLocked stores a new object (owned by the caller) for callers that hold t.mu.
func (t *tracker) createLocked(gvr schema.GroupVersionResource, obj runtime.Object, opts writeOptions) (runtime.Object, error) {
	m, _ := meta.Accessor(obj)
	s := t.store(gvr)
	normalizeBuiltin(obj)
	if m.GetName() == "" {
		for {
			m.SetName(generateName(m.GetGenerateName()))
			if _, err := t.get(gvr, m.GetNamespace(), m.GetName()); err != nil {
				break
			}
		}
	} else if _, err := t.get(gvr, m.GetNamespace(), m.GetName()); err == nil {
		return nil, apierrors.NewAlreadyExists(gvr.GroupResource(), m.GetName())
	}

	if errs := validateMeta(obj, m, true, t.ownerUIDOptional(m.GetNamespace())); len(errs) > 0 {
		return nil, t.invalid(gvr, obj, m.GetName(), errs...)
	}
	m.SetUID(uuid.NewUUID())
	m.SetCreationTimestamp(now())
	m.SetDeletionTimestamp(nil)
	m.SetDeletionGracePeriodSeconds(nil)
	if tracksGeneration(obj) {
		m.SetGeneration(1)
	}
	if hasStatusSubresource(obj) {
		clearStatus(obj)
	}
	if !opts.fieldsManaged {
		var err error
		if obj, err = t.manageFields(nil, obj, "", opts.fieldManager); err != nil {
			return nil, err
		}
	}
	if opts.dryRun {
		return obj, nil
	}
	return t.commit(s, watch.Added, obj, nil), nil
}

// update replaces the object named by obj, applying the server's update rules for the subresource
// ("" or "status"), and returns the stored copy.
func (t *tracker) update(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, opts metav1.UpdateOptions) (runtime.Object, error) {
	if obj == nil {
		return nil, errNoObject
	}
	obj = obj.DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if err := checkNamespace(m, ns); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m.GetName() == "" {
		// Only a fixture seeded without a name (kept as given, see ObjectTracker.Add) is stored under
		// the empty name; client-go's fake updates it, and tests written for it do so.
		if _, err := t.get(gvr, m.GetNamespace(), ""); err != nil {
			return nil, apierrors.NewBadRequest("name is required for update")
		}
	}
	return t.updateLocked(gvr, subresource, obj, writeOptions{dryRun: isDryRun(opts.DryRun), fieldManager: opts.FieldManager})
}

// updateLocked is update for callers that hold t.mu (patch and apply read and write in one step);
// it takes ownership of obj.
func (t *tracker) updateLocked(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, opts writeOptions) (runtime.Object, error) {
	normalizeBuiltin(obj)
	m, _ := meta.Accessor(obj)
	s := t.store(gvr)
	old, err := t.get(gvr, m.GetNamespace(), m.GetName())
	if err != nil {
		return nil, err
	}
	if subresource == "status" && !servesStatus(old) {
		return nil, errNoSuchSubresource()
	}
	if reflect.TypeOf(old) != reflect.TypeOf(obj) {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("cannot update %s with a %T", gvr.Resource, obj))
	}
	oldMeta, _ := meta.Accessor(old)
	if rv := m.GetResourceVersion(); rv != "" && rv != oldMeta.GetResourceVersion() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), m.GetName(),
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if uid := m.GetUID(); uid != "" && uid != oldMeta.GetUID() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), m.GetName(), uidPreconditionFailed(uid, oldMeta.GetUID()))
	}

	switch {
	case subresource == "status":
		obj = statusUpdate(old, obj)
		m, _ = meta.Accessor(obj)
	case subresource == "" && hasStatusSubresource(obj):
		copyStatus(obj, old)
	}
	// System fields stay as the server set them.
	m.SetUID(oldMeta.GetUID())
	m.SetCreationTimestamp(oldMeta.GetCreationTimestamp())
	m.SetDeletionTimestamp(oldMeta.GetDeletionTimestamp())
	m.SetDeletionGracePeriodSeconds(oldMeta.GetDeletionGracePeriodSeconds())
	m.SetGeneration(oldMeta.GetGeneration())
	m.SetResourceVersion(oldMeta.GetResourceVersion())
	// The name is not checked again: it is immutable, and was checked on create or seeded as given.
	if errs := validateMeta(obj, m, false, t.ownerUIDOptional(m.GetNamespace())); len(errs) > 0 {
		return nil, t.invalid(gvr, obj, m.GetName(), errs...)
	}
	if oldMeta.GetDeletionTimestamp() != nil && !containsAll(oldMeta.GetFinalizers(), m.GetFinalizers()) {
		return nil, t.invalid(gvr, obj, m.GetName(), field.Forbidden(field.NewPath("metadata", "finalizers"),
			"no new finalizers can be added if the object is being deleted"))
	}
	if subresource == "" && tracksGeneration(obj) && (specChanged(old, obj) || t.annotationsChangeGeneration(obj, oldMeta, m)) {
		m.SetGeneration(oldMeta.GetGeneration() + 1)
	}
	if !opts.fieldsManaged {
		if obj, err = t.manageFields(old, obj, subresource, opts.fieldManager); err != nil {
			return nil, err
		}
		m, _ = meta.Accessor(obj)
	}

	if sameContent(old, obj) || opts.dryRun {
		if opts.dryRun {
			return obj, nil
		}
		return old.DeepCopyObject(), nil
	}
	if m.GetDeletionTimestamp() != nil && len(m.GetFinalizers()) == 0 && !gracefulPending(m) {
		return t.commit(s, watch.Deleted, obj, old), nil
	}
	return t.commit(s, watch.Modified, obj, old), nil
}

// delete removes the object, or marks it with deletionTimestamp while it has finalizers, and
// returns its final state.
func (t *tracker) delete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.deleteLocked(gvr, ns, name, opts)
}

func (t *tracker) deleteLocked(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	s := t.store(gvr)
	old, err := t.get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	oldMeta, _ := meta.Accessor(old)
	if p := opts.Preconditions; p != nil {
		// The server names the kind, not the resource, in precondition failures of deletes.
		kind := gvr.GroupResource()
		if gvks, err := t.kindsOf(old); err == nil {
			kind = schema.GroupResource{Group: gvks[0].Group, Resource: gvks[0].Kind}
		}
		if p.UID != nil && *p.UID != oldMeta.GetUID() {
			return nil, apierrors.NewConflict(kind, name, uidPreconditionFailed(*p.UID, oldMeta.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != oldMeta.GetResourceVersion() {
			return nil, apierrors.NewConflict(kind, name, preconditionFailed("ResourceVersion", *p.ResourceVersion, oldMeta.GetResourceVersion()))
		}
	}
	if isDryRun(opts.DryRun) {
		return old.DeepCopyObject(), nil
	}
	grace := gracePeriod(old, opts)
	finalizers := len(oldMeta.GetFinalizers()) > 0
	marking := oldMeta.GetDeletionTimestamp() == nil
	if !marking {
		// Already being deleted: only a shorter pending grace period changes anything.
		pending := oldMeta.GetDeletionGracePeriodSeconds()
		if pending == nil || *pending == 0 || opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds >= *pending {
			return old.DeepCopyObject(), nil
		}
		grace = max(*opts.GracePeriodSeconds, 0)
	}
	if grace == 0 && !finalizers {
		return t.commit(s, watch.Deleted, old.DeepCopyObject(), old), nil
	}
	obj := old.DeepCopyObject()
	m, _ := meta.Accessor(obj)
	ts := metav1.NewTime(now().Add(time.Duration(grace) * time.Second))
	m.SetDeletionTimestamp(&ts)
	m.SetDeletionGracePeriodSeconds(&grace)
	if marking && m.GetGeneration() > 0 {
		m.SetGeneration(m.GetGeneration() + 1)
	}
	return t.commit(s, watch.Modified, obj, old), nil
}

// deleteCollection deletes every object the list options select, as one DELETE on the collection.
func (t *tracker) deleteCollection(gvr schema.GroupVersionResource, ns string, dopts metav1.DeleteOptions, lopts metav1.ListOptions) error {
	sel, err := newSelection(ns, lopts)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.store(gvr)
	var victims []metav1.Object
	for _, obj := range s.objects {
		if sel.matches(obj) {
			m, _ := meta.Accessor(obj)
			victims = append(victims, m)
		}
	}
	for _, m := range victims {
		if _, err := t.deleteLocked(gvr, m.GetNamespace(), m.GetName(), dopts); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// annotationsChangeGeneration reports whether the object is of a kind whose generation the server
// also bumps on annotation changes (Deployments, whose annotations reach their ReplicaSets) and
// the annotations changed.
func (t *tracker) annotationsChangeGeneration(obj runtime.Object, oldMeta, newMeta metav1.Object) bool {
	gvks, err := t.kindsOf(obj)
	if err != nil || gvks[0].GroupKind() != (schema.GroupKind{Group: "apps", Kind: "Deployment"}) {
		return false
	}
	return !equality.Semantic.DeepEqual(oldMeta.GetAnnotations(), newMeta.GetAnnotations())
}

// gracefulPending reports whether a graceful deletion still waits for its grace period, which the
// object's own agent (a kubelet for Pods) ends with a delete of grace period zero.
func gracefulPending(m metav1.Object) bool {
	p := m.GetDeletionGracePeriodSeconds()
	return p != nil && *p > 0
}

// preconditionFailed is the server's message for a failed precondition on a field.
func preconditionFailed(fieldName, want, have string) error {
	return errors.New("Precondition failed: " + fieldName + " in precondition: " + want + ", " + fieldName + " in object meta: " + have)
}

// uidPreconditionFailed is preconditionFailed for the uid.
func uidPreconditionFailed(want, have types.UID) error {
	return preconditionFailed("UID", string(want), string(have))
}

// servesStatus reports whether the object has a status subresource; unstructured objects are
// assumed to have one when asked, as the tracker cannot know their CRD.
func servesStatus(obj runtime.Object) bool {
	_, unstructured := obj.(*unstructured.Unstructured)
	return unstructured || hasStatusSubresource(obj)
}

// errNoSuchSubresource is the server's answer for a subresource the resource does not have.
func errNoSuchSubresource() error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusNotFound,
		Reason:  metav1.StatusReasonNotFound,
		Message: "the server could not find the requested resource",
	}}
}

// checkNamespace defaults the object's namespace to the request's and rejects a mismatch.
func checkNamespace(m metav1.Object, ns string) error {
	if m.GetNamespace() == "" {
		m.SetNamespace(ns)
	}
	if m.GetNamespace() != ns {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// invalid builds the 422 Invalid error the server returns for a failed validation.
func (t *tracker) invalid(gvr schema.GroupVersionResource, obj runtime.Object, name string, errs ...*field.Error) error {
	gk := obj.GetObjectKind().GroupVersionKind().GroupKind()
	if gk.Empty() {
		if gvks, _, err := t.scheme.ObjectKinds(obj); err == nil && len(gvks) > 0 {
			gk = gvks[0].GroupKind()
		} else {
			gk = schema.GroupKind{Group: gvr.Group, Kind: gvr.Resource}
		}
	}
	return apierrors.NewInvalid(gk, name, errs)
}
