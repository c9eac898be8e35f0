// Package gentype holds the generic typed client that generated typed clients embed,
// and its fake twin that generated fake clients embed.
//
// A generated client for a type T declares its interface and embeds one of Client[T],
// ClientWithList[T, L], ClientWithApply[T, C] or ClientWithListAndApply[T, L, C]; the
// standard verbs (Get, List, Watch, Create, Update, UpdateStatus, Delete, DeleteCollection,
// Patch, Apply, ApplyStatus) live here once instead of in every generated file. The fake
// variants (FakeClient and friends) record the same verbs as actions on a testing.Fake.
//
// Names and signatures match k8s.io/client-go/gentype, so generated code and callers port by
// changing the import path. Differences: apply requests are rejected before they are sent when
// the field manager or the name is empty, the fakes return an error instead of panicking on a malformed
// selector or an object of the wrong type from a reactor, and the fake apply verbs enforce the
// same input rules as the real ones.
package gentype
