package cache

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// InformerSynced reports whether an informer has synced.
type InformerSynced func() bool

// syncedPollPeriod is how often WaitForCacheSync polls.
const syncedPollPeriod = 100 * time.Millisecond

// WaitForCacheSync waits until every cacheSyncs reports true; it returns false if stopCh closed first.
func WaitForCacheSync(stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	ticker := time.NewTicker(syncedPollPeriod)
	defer ticker.Stop()
	for {
		if allSynced(cacheSyncs) {
			return true
		}
		select {
		case <-stopCh:
			return false
		case <-ticker.C:
		}
	}
}

func allSynced(cacheSyncs []InformerSynced) bool {
	for _, synced := range cacheSyncs {
		if !synced() {
			return false
		}
	}
	return true
}

// WaitForNamedCacheSync is WaitForCacheSync that logs the waiting controller's name.
func WaitForNamedCacheSync(controllerName string, stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	klog.InfoS("Waiting for caches to sync", "controller", controllerName)
	if !WaitForCacheSync(stopCh, cacheSyncs...) {
		klog.ErrorS(nil, "Unable to sync caches", "controller", controllerName)
		return false
	}
	klog.InfoS("Caches are synced", "controller", controllerName)
	return true
}

// WaitForNamedCacheSyncWithContext is WaitForNamedCacheSync with the logger and lifetime of ctx.
func WaitForNamedCacheSyncWithContext(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	logger := klog.FromContext(ctx)
	logger.Info("Waiting for caches to sync")
	if !WaitForCacheSync(ctx.Done(), cacheSyncs...) {
		logger.Error(nil, "Unable to sync caches")
		return false
	}
	logger.Info("Caches are synced")
	return true
}

// DoneChecker reports completion of an activity, such as a cache sync, through a channel.
type DoneChecker interface {
	// Name describes what is being waited for.
	Name() string
	// Done is closed once the activity completed.
	Done() <-chan struct{}
}

// IsDone reports, without blocking, whether checker is done.
func IsDone(checker DoneChecker) bool {
	select {
	case <-checker.Done():
		return true
	default:
		return false
	}
}

// WaitFor waits without polling until every checker is done; it returns false if ctx ended first.
// A non-empty what is logged with the progress.
func WaitFor(ctx context.Context, what string, checkers ...DoneChecker) bool {
	logger := klog.FromContext(ctx)
	if what != "" {
		logger.Info("Waiting", "for", what)
	}
	var pending []string
	for _, c := range checkers {
		select {
		case <-c.Done():
		case <-ctx.Done():
			if !IsDone(c) {
				pending = append(pending, c.Name())
			}
		}
	}
	if len(pending) > 0 {
		if what != "" {
			slices.Sort(pending)
			logger.Info("Timed out waiting", "for", what, "cause", context.Cause(ctx), "instances", pending)
		}
		return false
	}
	if what != "" {
		logger.Info("Done waiting", "for", what)
	}
	return true
}

// SyncResult is what a shared informer factory's WaitForCacheSyncWithContext returns.
type SyncResult struct {
	// Err is nil when every informer synced, otherwise why waiting stopped.
	Err error
	// Synced reports, per informer type, whether it synced.
	Synced map[reflect.Type]bool
}

// AsError returns nil when every informer synced, otherwise an error naming the ones that did not.
func (r SyncResult) AsError() error {
	if r.Err == nil {
		return nil
	}
	var unsynced []string
	for t, ok := range r.Synced {
		if !ok {
			unsynced = append(unsynced, t.String())
		}
	}
	slices.Sort(unsynced)
	return fmt.Errorf("failed to sync all caches: %s: %w", strings.Join(unsynced, ", "), r.Err)
}

// GVRSyncResult is what a dynamic or metadata informer factory's WaitForCacheSyncWithContext
// reports: why waiting stopped, if not every informer synced, and per resource whether it did.
type GVRSyncResult struct {
	// Err is nil when every informer synced, otherwise why waiting stopped (context.Cause).
	Err error
	// Synced reports, per resource, whether its informer synced.
	Synced map[schema.GroupVersionResource]bool
}

// AsError returns nil when every informer synced, otherwise an error naming the resources whose
// informers did not and wrapping Err.
func (r GVRSyncResult) AsError() error {
	if r.Err == nil {
		return nil
	}
	var unsynced []string
	for gvr, ok := range r.Synced {
		if !ok {
			unsynced = append(unsynced, gvr.String())
		}
	}
	slices.Sort(unsynced)
	return fmt.Errorf("failed to sync all caches: %s: %w", strings.Join(unsynced, ", "), r.Err)
}
