// Package informers is the shared-informer-factory plumbing generated factories delegate to: one informer
// per object type, memoized and started together, with the factory-wide namespace, list-options tweak,
// resync and transform settings; NewTypedInformer, which builds a typed informer from a client's List and
// Watch; and the generic pieces every generated per-type informer shares (NewShared, WithTypedView,
// TypedView), so that generated informer files hold only their exported names.
package informers
