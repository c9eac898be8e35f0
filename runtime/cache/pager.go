package cache

import (
	"context"
	"errors"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// listPages lists a collection in pages of pageSize (0 means one request) and returns every item and
// the resourceVersion of the list. keep, if not nil, is applied to each item once its page arrives and
// returns the item to keep in its place, or false to drop it; it runs on a goroutine of its own, page
// after page in order, while the next page is fetched and decoded, so preparing objects for a cache
// costs no time on a machine with a spare core. Pages are dropped as soon as their items are taken,
// so a paged list is never held twice. When a continue token expires mid-way, it restarts as one
// unpaged request.
func listPages(ctx context.Context, lw ListerWatcherWithContext, options metav1.ListOptions, pageSize int64, keep func(any) (any, bool)) ([]any, string, error) {
	options.Limit = pageSize
	full := options
	full.Limit = 0
	var k *keeper
	for {
		list, err := lw.ListWithContext(ctx, options)
		if err != nil {
			if k != nil {
				k.finish()
			}
			if options.Continue != "" && apierrors.IsResourceExpired(err) {
				return listPages(ctx, lw, full, 0, keep)
			}
			return nil, "", err
		}
		if isNil(list) {
			if k != nil {
				k.finish()
			}
			return nil, "", errors.New("list returned no object")
		}
		listMeta, err := meta.ListAccessor(list)
		if err != nil {
			if k != nil {
				k.finish()
			}
			return nil, "", err
		}
		if k == nil {
			// The first page tells how many items follow, when the server counts them.
			n := int64(meta.LenList(list))
			if remaining := listMeta.GetRemainingItemCount(); remaining != nil && *remaining > 0 {
				n += *remaining
			}
			k = startKeeper(n, keep)
		}
		// Each item is copied out of the page (a shallow copy), so that keeping one listed object
		// does not keep the whole page, with every stale object in it, alive.
		page := make([]any, 0, meta.LenList(list))
		if err := meta.EachListItemWithAlloc(list, func(obj runtime.Object) error {
			page = append(page, obj)
			return nil
		}); err != nil {
			k.finish()
			return nil, "", err
		}
		k.pages <- page
		if listMeta.GetContinue() == "" || pageSize == 0 {
			return k.finish(), listMeta.GetResourceVersion(), nil
		}
		// The continue token pins the snapshot; a resourceVersion must not be sent with it.
		options.Continue = listMeta.GetContinue()
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
	}
}

// keeper applies a keep function to the pages of a list on a goroutine of its own.
type keeper struct {
	pages chan []any
	done  chan struct{}
	items []any
}

// startKeeper starts a keeper expecting about n items; a nil keep keeps every item.
func startKeeper(n int64, keep func(any) (any, bool)) *keeper {
	// One page waits while one is kept and the next decoded: preparing never holds up fetching.
	k := &keeper{pages: make(chan []any, 1), done: make(chan struct{}), items: make([]any, 0, n)}
	go func() {
		defer close(k.done)
		for page := range k.pages {
			for i, obj := range page {
				page[i] = nil // the page lets go of each object as it is taken
				if keep == nil {
					k.items = append(k.items, obj)
				} else if kept, ok := keep(obj); ok {
					k.items = append(k.items, kept)
				}
			}
		}
	}()
	return k
}

// finish waits until every page sent is kept and returns the items kept.
func (k *keeper) finish() []any {
	close(k.pages)
	<-k.done
	return k.items
}

// isNil reports whether obj is nil or a nil pointer, which a buggy ListerWatcher may return.
func isNil(obj any) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
