// Package fake holds the fake twin of package gentype's generic typed client, which generated fake
// clients embed: FakeClient[T], FakeClientWithList[T, L], FakeClientWithApply[T, C] and
// FakeClientWithListAndApply[T, L, C] record the same verbs as actions on a testing.Fake and return its
// reactors' answers. It is a package of its own so that production clientsets, which import gentype, do
// not link the fake object tracker.
//
// Names and signatures match the fake half of k8s.io/client-go/gentype (the type names keep their Fake
// prefix because generated fakes embed them, which makes each name a field name). Differences: the fakes
// return an error instead of panicking on a malformed selector or an object of the wrong type from a
// reactor, and the fake apply verbs enforce the same input rules as the real ones.
package fake
