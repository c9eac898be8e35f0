// Package testing is the engine of generated fake clientsets: Fake records actions and answers them
// through reactor chains, and ObjectTracker stores objects and answers requests the way the API
// server does. Names and signatures mirror k8s.io/client-go/testing, so tests port by changing
// imports.
//
// Where client-go's tracker stores requests as-is, this one applies the server's rules, and a test
// suite (runtime/testing/fidelity) runs the same scenarios against it and a real kube-apiserver:
//
//   - every write takes the next value of one resourceVersion counter, stored in the object; an
//     update with a stale resourceVersion (or another uid) is a Conflict, and a write that changes
//     nothing keeps the resourceVersion and emits no event;
//   - create assigns uid, creationTimestamp, a name from generateName and generation 1 (for
//     types with a spec); AlreadyExists, NotFound, Invalid and BadRequest errors carry the
//     server's status, reason and details;
//   - generation increases on changes outside metadata and status (and on annotation changes of
//     Deployments, as the server does);
//   - for types with a Status field, status is dropped on create, kept on main-resource writes and
//     the only thing a status write of a custom type changes (built-in types keep metadata changes
//     there, except a Deployment's labels and a Pod's owner references);
//   - object metadata is validated (name format, labels, annotations, owner references,
//     finalizers) with the server's Invalid errors;
//   - Secrets get stringData merged into data and type Opaque by default;
//   - label selectors; field selectors with the server's field labels for built-in kinds (any
//     field path for custom resources); dry run and delete preconditions;
//   - lists page with limit/continue over one consistent snapshot, and resourceVersionMatch=Exact
//     reads the state at an earlier resourceVersion, both rebuilt from the watch history;
//   - delete of an object with finalizers sets deletionTimestamp; removing the last finalizer
//     deletes it; new finalizers are refused while deleting; Pods bound to a node are deleted
//     gracefully (deletionGracePeriodSeconds, ended by a delete with grace period zero);
//     DeleteCollection is served;
//   - JSON, merge and strategic merge patches (the latter refused for custom resources, as for
//     CRDs) and server-side apply, with field ownership and conflicts when the tracker comes from
//     NewFieldManagedObjectTracker;
//   - watches replay every change after their resourceVersion in order from a bounded history
//     (older ones fail with 410 Expired), start with the current objects when given no
//     resourceVersion, follow objects entering and leaving their selectors, honour timeoutSeconds,
//     serve streaming lists (sendInitialEvents with the initial-events-end bookmark) and buffer
//     without bound for slow consumers.
//
// Add stores fixtures as existing server state: only their resourceVersion is assigned. Reactors
// run without the Fake's lock held, so a reaction may call the Fake again.
package testing
