// Package listergen renders typed listers from the shared model, with code-generator's lister-gen layout
// and exported API; the listing itself is runtime/listers' generic ResourceIndexer.
package listergen
