// Package listers is the generic lister generated listers embed: typed List and Get over an informer's
// Indexer, cluster-wide or within a namespace, with NotFound errors naming the resource as the
// lister was built with (generated listers use the lowercase kind, as client-go's do).
//
// Listers return the informer's cached objects, which lack metadata.managedFields: informers drop them
// by default to save memory (see cache.SharedIndexInformerOptions.KeepManagedFields and the generated
// factories' WithKeepManagedFields). Code that needs managed fields, such as the generated Extract<Type>
// functions of apply configurations, must read the object from the server with the typed client's Get;
// extracting from a lister's object finds no fields for any manager. The returned objects are shared
// with the cache and other handlers and must not be modified: informers share equal parts (strings,
// label maps, resource lists, probes) between cached objects, so modifying one object in place may
// change others (see cache.SharedIndexInformerOptions.DisableSharing). Modify a DeepCopy.
package listers
