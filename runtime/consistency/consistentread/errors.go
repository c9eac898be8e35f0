package consistentread

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/consistency"
)

// NotObservedError is returned by a wait that ended before the informer's cache held a write: at the
// Reader's timeout, when the context ended (Err is then the context's error) or when the informer
// stopped.
type NotObservedError struct {
	// Resource is the informer's group and resource.
	Resource schema.GroupResource
	// Write is a write the cache did not hold yet (the zero Write while the informer had not synced).
	Write consistency.Write
	// Synced tells whether the informer had synced.
	Synced bool
	// CacheResourceVersion is the resourceVersion the cache had reached.
	CacheResourceVersion string
	// Waited is how long the wait lasted.
	Waited time.Duration
	// Err is why the wait ended early, nil when it reached the timeout.
	Err error
}

func (e *NotObservedError) Error() string {
	var what string
	switch {
	case !e.Synced:
		what = "the informer has not synced"
	case e.Write.Deleted && e.Write.ResourceVersion == "":
		what = fmt.Sprintf("%s %q deleted (uid %q) is still in the cache", e.Resource, e.Write.Key(), e.Write.UID)
	case e.Write.Deleted:
		what = fmt.Sprintf("%s %q deleted at resourceVersion %s is not reflected in the cache (cache at resourceVersion %q)",
			e.Resource, e.Write.Key(), e.Write.ResourceVersion, e.CacheResourceVersion)
	default:
		what = fmt.Sprintf("%s %q written at resourceVersion %s is not in the cache (cache at resourceVersion %q)",
			e.Resource, e.Write.Key(), e.Write.ResourceVersion, e.CacheResourceVersion)
	}
	ending := "timed out"
	if e.Err != nil {
		ending = e.Err.Error()
	}
	return fmt.Sprintf("read-your-writes: %s after %s: %s", what, e.Waited.Round(time.Millisecond), ending)
}

// Unwrap returns Err.
func (e *NotObservedError) Unwrap() error { return e.Err }

// IsNotObserved reports whether err is, or wraps, a *NotObservedError.
func IsNotObserved(err error) bool {
	var e *NotObservedError
	return errors.As(err, &e)
}
