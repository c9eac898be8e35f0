// Package gentype holds the generic typed client that generated typed clients embed; its fake twin,
// which generated fake clients embed, is package gentype/fake, so production clientsets link no fake code.
//
// A generated client for a type T declares its interface and embeds one of Client[T],
// ClientWithList[T, L], ClientWithApply[T, C] or ClientWithListAndApply[T, L, C]; the
// standard verbs (Get, List, Watch, Create, Update, UpdateStatus, Delete, DeleteCollection,
// Patch, Apply, ApplyStatus) live here once instead of in every generated file.
//
// Names and signatures match k8s.io/client-go/gentype, so generated code and callers port by
// changing the import path. Differences: apply requests are rejected before they are sent when
// the field manager or the name is empty.
package gentype
