package cache

import (
	"fmt"
	"strings"

	"k8s.io/klog/v2"
)

// ResourceEventHandler receives an informer's notifications. Handlers must not modify the objects.
// OnDelete may receive a DeletedFinalStateUnknown when the final state of the object is unknown.
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs is a ResourceEventHandler made of optional functions.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd calls AddFunc if set.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if set.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs whose AddFunc also learns whether the
// object came from the initial list.
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd calls AddFunc if set.
func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if set.
func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if set.
func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler passes to Handler only the objects FilterFunc accepts. An update whose
// object enters the filter becomes an add, and one whose object leaves it becomes a delete.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

// OnAdd forwards accepted objects.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate forwards, adds or deletes depending on which side of the filter the objects are.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	switch oldIn, newIn := r.FilterFunc(oldObj), r.FilterFunc(newObj); {
	case oldIn && newIn:
		r.Handler.OnUpdate(oldObj, newObj)
	case !oldIn && newIn:
		r.Handler.OnAdd(newObj, false)
	case oldIn && !newIn:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete forwards accepted objects.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

// Object is what typed handlers need of an object: a name and a namespace. comparable lets a nil
// object be detected.
type Object interface {
	comparable
	GetName() string
	GetNamespace() string
}

// TypedResourceEventHandler is a ResourceEventHandler for objects of type T.
type TypedResourceEventHandler[T Object] interface {
	OnAdd(obj T, isInInitialList bool)
	OnUpdate(oldObj, newObj T)
	OnDelete(obj DeletedObject[T])
}

// DeletedObject describes a deleted object. OptionalObj is its last known state; it may be stale
// (FinalStateUnknown is then set) or zero when no state was known. GetKey works in every case.
type DeletedObject[T Object] struct {
	OptionalObj       T
	FinalStateUnknown *DeletedFinalStateUnknown
}

// GetObjectName returns the namespace and name of the deleted object.
func (d DeletedObject[T]) GetObjectName() ObjectName {
	if d.FinalStateUnknown != nil {
		ns, name, found := strings.Cut(d.FinalStateUnknown.Key, "/")
		if !found {
			return ObjectName{Name: ns}
		}
		return ObjectName{Namespace: ns, Name: name}
	}
	var zero T
	if d.OptionalObj == zero {
		return ObjectName{}
	}
	return ObjectName{Namespace: d.OptionalObj.GetNamespace(), Name: d.OptionalObj.GetName()}
}

// GetName returns the name of the deleted object.
func (d DeletedObject[T]) GetName() string { return d.GetObjectName().Name }

// GetNamespace returns the namespace of the deleted object.
func (d DeletedObject[T]) GetNamespace() string { return d.GetObjectName().Namespace }

// GetKey returns the cache key of the deleted object.
func (d DeletedObject[T]) GetKey() string { return d.GetObjectName().String() }

// TypedResourceEventHandlerFuncs is a TypedResourceEventHandler made of optional functions.
type TypedResourceEventHandlerFuncs[T Object] struct {
	AddFunc    func(obj T)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

// OnAdd calls AddFunc if set.
func (r TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if set.
func (r TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if set.
func (r TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedResourceEventHandlerDetailedFuncs is TypedResourceEventHandlerFuncs whose AddFunc also learns
// whether the object came from the initial list.
type TypedResourceEventHandlerDetailedFuncs[T Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

// OnAdd calls AddFunc if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedFilteringResourceEventHandler is FilteringResourceEventHandler for objects of type T.
type TypedFilteringResourceEventHandler[T Object] struct {
	FilterFunc func(obj T) bool
	Handler    TypedResourceEventHandler[T]
}

// OnAdd forwards accepted objects.
func (r TypedFilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate forwards, adds or deletes depending on which side of the filter the objects are.
func (r TypedFilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	switch oldIn, newIn := r.FilterFunc(oldObj), r.FilterFunc(newObj); {
	case oldIn && newIn:
		r.Handler.OnUpdate(oldObj, newObj)
	case !oldIn && newIn:
		r.Handler.OnAdd(newObj, false)
	case oldIn && !newIn:
		r.Handler.OnDelete(DeletedObject[T]{OptionalObj: oldObj})
	}
}

// OnDelete forwards accepted objects; a deletion without any known state is always forwarded.
func (r TypedFilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	var zero T
	if obj.OptionalObj == zero || r.FilterFunc(obj.OptionalObj) {
		r.Handler.OnDelete(obj)
	}
}

// untypedHandler adapts a TypedResourceEventHandler to ResourceEventHandler. Objects of another type
// are logged and dropped rather than panicking.
type untypedHandler[T Object] struct {
	handler TypedResourceEventHandler[T]
}

func (h untypedHandler[T]) OnAdd(obj any, isInInitialList bool) {
	if typed, ok := castObject[T](obj); ok {
		h.handler.OnAdd(typed, isInInitialList)
	}
}

func (h untypedHandler[T]) OnUpdate(oldObj, newObj any) {
	oldTyped, ok1 := castObject[T](oldObj)
	newTyped, ok2 := castObject[T](newObj)
	if ok1 && ok2 {
		h.handler.OnUpdate(oldTyped, newTyped)
	}
}

func (h untypedHandler[T]) OnDelete(obj any) {
	tomb, isTomb := obj.(DeletedFinalStateUnknown)
	if !isTomb {
		if typed, ok := castObject[T](obj); ok {
			h.handler.OnDelete(DeletedObject[T]{OptionalObj: typed})
		}
		return
	}
	d := DeletedObject[T]{FinalStateUnknown: &tomb}
	if tomb.Obj != nil {
		typed, ok := castObject[T](tomb.Obj)
		if !ok {
			return
		}
		d.OptionalObj = typed
	}
	h.handler.OnDelete(d)
}

func castObject[T any](obj any) (T, bool) {
	typed, ok := obj.(T)
	if !ok {
		var zero T
		klog.ErrorS(nil, "Event handler got an object of an unexpected type; dropped", "want", fmt.Sprintf("%T", zero), "got", fmt.Sprintf("%T", obj))
	}
	return typed, ok
}
