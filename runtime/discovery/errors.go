package discovery

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ErrGroupDiscoveryFailed reports group versions whose resources could not be discovered.
type ErrGroupDiscoveryFailed struct {
	// Groups maps each failed group version to its error.
	Groups map[schema.GroupVersion]error
}

// Error lists the failed group versions in a stable order.
func (e *ErrGroupDiscoveryFailed) Error() string {
	var parts []string
	for gv, err := range e.Groups {
		parts = append(parts, fmt.Sprintf("%s: %v", gv, err))
	}
	sort.Strings(parts)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
}

// Is matches any *ErrGroupDiscoveryFailed.
func (e *ErrGroupDiscoveryFailed) Is(target error) bool {
	_, ok := target.(*ErrGroupDiscoveryFailed)
	return ok
}

// IsGroupDiscoveryFailedError reports whether err is (or wraps) an *ErrGroupDiscoveryFailed.
func IsGroupDiscoveryFailedError(err error) bool {
	var e *ErrGroupDiscoveryFailed
	return err != nil && errors.As(err, &e)
}

// StaleGroupVersionError reports a group version the aggregator marked stale (its backing server is not answering).
type StaleGroupVersionError struct {
	gv schema.GroupVersion
}

// Error names the stale group version.
func (e StaleGroupVersionError) Error() string {
	return fmt.Sprintf("stale GroupVersion discovery: %v", e.gv)
}
