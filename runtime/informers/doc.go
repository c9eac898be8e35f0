// Package informers is the shared-informer-factory plumbing generated factories delegate to: one informer
// per object type, memoized and started together, with the factory-wide namespace, list-options tweak,
// resync and transform settings; and NewTypedInformer, which builds a typed informer from a client's
// List and Watch so that generated per-type informers are a few lines each.
package informers
