package cache

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
)

// Store is a generic, thread-safe object storage. Objects are addressed by the key its KeyFunc computes.
// Callers must treat every object returned by a Store as read-only.
type Store interface {
	// Add inserts an object, replacing any object with the same key.
	Add(obj any) error
	// Update stores an object under its key, the same as Add.
	Update(obj any) error
	// Delete removes the object with the key of obj.
	Delete(obj any) error
	// List returns all stored objects in no particular order.
	List() []any
	// ListKeys returns the keys of all stored objects in no particular order.
	ListKeys() []string
	// LastStoreSyncResourceVersion returns the resourceVersion of the last Replace or Bookmark.
	LastStoreSyncResourceVersion() string
	// Bookmark records that the store reflects the server state at resourceVersion rv.
	Bookmark(rv string)
	// Get returns the stored object with the key of obj.
	Get(obj any) (item any, exists bool, err error)
	// GetByKey returns the stored object with the given key.
	GetByKey(key string) (item any, exists bool, err error)
	// Replace atomically replaces the whole content with list, recorded at resourceVersion.
	Replace(list []any, resourceVersion string) error
	// Resync is meaningful only for queues; plain stores do nothing.
	Resync() error
}

// KeyFunc computes the storage key of an object.
type KeyFunc func(obj any) (string, error)

// KeyError reports that the key of an object could not be computed.
type KeyError struct {
	Obj any
	Err error
}

// Error describes the failure.
func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// Unwrap returns the underlying error.
func (k KeyError) Unwrap() error { return k.Err }

// ExplicitKey is a key passed in place of an object; MetaNamespaceKeyFunc returns it unchanged.
type ExplicitKey string

// MetaNamespaceKeyFunc returns "namespace/name" for namespaced objects and "name" for cluster-scoped ones.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %w", err)
	}
	return ObjectName{Namespace: m.GetNamespace(), Name: m.GetName()}.String(), nil
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also understands
// DeletedFinalStateUnknown tombstones, returning the key they carry.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SplitMetaNamespaceKey splits a key produced by MetaNamespaceKeyFunc into namespace and name.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}

// ObjectName is the namespace and name of an object.
type ObjectName struct {
	Namespace string
	Name      string
}

// String returns "namespace/name", or just "name" when the namespace is empty.
func (n ObjectName) String() string {
	if n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "/" + n.Name
}

// ObjectToName returns the ObjectName of any object with metadata.
func ObjectToName(obj any) (ObjectName, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ObjectName{}, fmt.Errorf("object has no meta: %w", err)
	}
	return ObjectName{Namespace: m.GetNamespace(), Name: m.GetName()}, nil
}

// DeletedFinalStateUnknown is handed to delete handlers when an object disappeared while the watch was
// down: Obj is the last state known to the cache and may be stale.
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// keyedStore implements Store and Indexer on top of a threadSafeMap.
type keyedStore struct {
	items     *threadSafeMap
	keyFunc   KeyFunc
	transform TransformFunc
}

var _ Indexer = &keyedStore{}

// StoreOption configures a store built by NewStore or NewIndexer.
type StoreOption func(*keyedStore)

// WithTransformer applies transformer to every object added, updated or replaced into the store.
func WithTransformer(transformer TransformFunc) StoreOption {
	return func(s *keyedStore) { s.transform = transformer }
}

// NewStore returns a Store keyed by keyFunc.
func NewStore(keyFunc KeyFunc, opts ...StoreOption) Store {
	return newKeyedStore(keyFunc, Indexers{}, opts)
}

// NewIndexer returns an Indexer keyed by keyFunc that maintains the given indexes.
func NewIndexer(keyFunc KeyFunc, indexers Indexers, opts ...StoreOption) Indexer {
	return newKeyedStore(keyFunc, indexers, opts)
}

func newKeyedStore(keyFunc KeyFunc, indexers Indexers, opts []StoreOption) *keyedStore {
	s := &keyedStore{items: newThreadSafeMap(indexers, 0), keyFunc: keyFunc}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *keyedStore) keyAndObject(obj any) (string, any, error) {
	key, err := s.keyFunc(obj)
	if err != nil {
		return "", nil, KeyError{obj, err}
	}
	if s.transform != nil {
		if obj, err = s.transform(obj); err != nil {
			return "", nil, fmt.Errorf("transforming %q: %w", key, err)
		}
	}
	return key, obj, nil
}

// Add inserts obj.
func (s *keyedStore) Add(obj any) error {
	key, obj, err := s.keyAndObject(obj)
	if err != nil {
		return err
	}
	s.items.Add(key, obj)
	return nil
}

// Update stores obj.
func (s *keyedStore) Update(obj any) error { return s.Add(obj) }

// Delete removes the object with the key of obj.
func (s *keyedStore) Delete(obj any) error {
	key, err := s.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	s.items.DeleteWithObject(key, obj)
	return nil
}

// List returns all objects.
func (s *keyedStore) List() []any { return s.items.List() }

// ListKeys returns all keys.
func (s *keyedStore) ListKeys() []string { return s.items.ListKeys() }

// LastStoreSyncResourceVersion returns the last recorded resourceVersion.
func (s *keyedStore) LastStoreSyncResourceVersion() string {
	return s.items.LastStoreSyncResourceVersion()
}

// ResourceVersionChanged returns a channel closed the next time the recorded resourceVersion is set;
// ask for it before reading LastStoreSyncResourceVersion. The Indexers of this package's informers have
// it, for readers that wait until the cache reaches a resourceVersion (runtime/consistency).
func (s *keyedStore) ResourceVersionChanged() <-chan struct{} {
	return s.items.ResourceVersionChanged()
}

// Bookmark records rv.
func (s *keyedStore) Bookmark(rv string) { s.items.Bookmark(rv) }

// Get returns the object with the key of obj.
func (s *keyedStore) Get(obj any) (any, bool, error) {
	key, err := s.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return s.GetByKey(key)
}

// GetByKey returns the object stored under key.
func (s *keyedStore) GetByKey(key string) (any, bool, error) {
	item, ok := s.items.Get(key)
	return item, ok, nil
}

// Replace swaps in the content of list; objects whose key cannot be computed are skipped and reported.
func (s *keyedStore) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	var errs []error
	for _, obj := range list {
		key, obj, err := s.keyAndObject(obj)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		items[key] = obj
	}
	s.items.Replace(items, resourceVersion)
	return errors.Join(errs...)
}

// Resync does nothing for a plain store.
func (s *keyedStore) Resync() error { return nil }

// Index returns the objects that share an indexed value with obj.
func (s *keyedStore) Index(indexName string, obj any) ([]any, error) {
	return s.items.Index(indexName, obj)
}

// IndexKeys returns the keys of the objects indexed under indexedValue.
func (s *keyedStore) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return s.items.IndexKeys(indexName, indexedValue)
}

// ListIndexFuncValues returns every value of the named index.
func (s *keyedStore) ListIndexFuncValues(indexName string) []string {
	return s.items.ListIndexFuncValues(indexName)
}

// ByIndex returns the objects indexed under indexedValue.
func (s *keyedStore) ByIndex(indexName, indexedValue string) ([]any, error) {
	return s.items.ByIndex(indexName, indexedValue)
}

// GetIndexers returns the index functions.
func (s *keyedStore) GetIndexers() Indexers { return s.items.GetIndexers() }

// AddIndexers adds indexes and builds them for the objects already stored.
func (s *keyedStore) AddIndexers(newIndexers Indexers) error {
	return s.items.AddIndexers(newIndexers)
}
