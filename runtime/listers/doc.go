// Package listers is the generic lister generated listers embed: typed List and Get over an informer's
// Indexer, cluster-wide or within a namespace, with NotFound errors naming the plural resource.
package listers
