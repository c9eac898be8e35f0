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
// the resourceVersion of the list. keep, if not nil, is applied to each item soon after its page
// arrives, on another goroutine while the next page is fetched and decoded, and returns the item to
// keep in its place, or false to drop it. Pages are dropped as soon as their items are taken, so a paged
// list is never held twice. When a continue token expires mid-way, it restarts as one unpaged
// request.
func listPages(ctx context.Context, lw ListerWatcherWithContext, options metav1.ListOptions, pageSize int64, keep func(any) (any, bool)) ([]any, string, error) {
	options.Limit = pageSize
	full := options
	full.Limit = 0
	var items []any
	var prep *pagePreparer
	if keep != nil {
		prep = startPagePreparer(keep)
		defer prep.finish()
	}
	for {
		list, err := lw.ListWithContext(ctx, options)
		if err != nil {
			if options.Continue != "" && apierrors.IsResourceExpired(err) {
				return listPages(ctx, lw, full, 0, keep)
			}
			return nil, "", err
		}
		if isNil(list) {
			return nil, "", errors.New("list returned no object")
		}
		listMeta, err := meta.ListAccessor(list)
		if err != nil {
			return nil, "", err
		}
		if items == nil && prep == nil {
			// The first page tells how many items follow, when the server counts them.
			n := int64(meta.LenList(list))
			if remaining := listMeta.GetRemainingItemCount(); remaining != nil && *remaining > 0 {
				n += *remaining
			}
			items = make([]any, 0, n)
		}
		// Each item is copied out of the page (a shallow copy), so that keeping one listed object
		// does not keep the whole page, with every stale object in it, alive.
		page := items
		if prep != nil {
			// The preparer owns the page's items until finish; they are prepared while the next
			// page is fetched.
			page = make([]any, 0, meta.LenList(list))
		}
		if err := meta.EachListItemWithAlloc(list, func(obj runtime.Object) error {
			page = append(page, obj)
			return nil
		}); err != nil {
			return nil, "", err
		}
		if prep == nil {
			items = page
		} else {
			prep.pages <- page
		}
		if listMeta.GetContinue() == "" || pageSize == 0 {
			if prep != nil {
				items = prep.finish()
			}
			return items, listMeta.GetResourceVersion(), nil
		}
		// The continue token pins the snapshot; a resourceVersion must not be sent with it.
		options.Continue = listMeta.GetContinue()
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
	}
}

// pagePreparer applies a keep function to listed pages on its own goroutine, in order.
type pagePreparer struct {
	pages    chan []any
	prepared chan []any
	done     bool
}

func startPagePreparer(keep func(any) (any, bool)) *pagePreparer {
	p := &pagePreparer{pages: make(chan []any, 1), prepared: make(chan []any, 1)}
	go func() {
		var items []any
		for page := range p.pages {
			for _, obj := range page {
				if kept, ok := keep(obj); ok {
					items = append(items, kept)
				}
			}
		}
		p.prepared <- items
	}()
	return p
}

// finish waits for the pages sent so far to be prepared and returns their kept items; later calls
// return nil.
func (p *pagePreparer) finish() []any {
	if p.done {
		return nil
	}
	p.done = true
	close(p.pages)
	return <-p.prepared
}

// isNil reports whether obj is nil or a nil pointer, which a buggy ListerWatcher may return.
func isNil(obj any) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
