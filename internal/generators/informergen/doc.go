// Package informergen renders a shared informer factory with per-group, per-version and per-type informers
// from the shared model, with code-generator's informer-gen layout and exported API; the factory plumbing
// and informer construction live in runtime/informers.
package informergen
