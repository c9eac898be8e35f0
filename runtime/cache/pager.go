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
// the resourceVersion of the list. keep, if not nil, is applied to each item as its page arrives and
// returns the item to keep in its place, or false to drop it. Pages are dropped as soon as their items are taken, so a paged
// list is never held twice. When a continue token expires mid-way, it restarts as one unpaged
// request.
func listPages(ctx context.Context, lw ListerWatcherWithContext, options metav1.ListOptions, pageSize int64, keep func(any) (any, bool)) ([]any, string, error) {
	options.Limit = pageSize
	full := options
	full.Limit = 0
	var items []any
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
		if items == nil {
			// The first page tells how many items follow, when the server counts them.
			n := int64(meta.LenList(list))
			if remaining := listMeta.GetRemainingItemCount(); remaining != nil && *remaining > 0 {
				n += *remaining
			}
			items = make([]any, 0, n)
		}
		// Each item is copied out of the page (a shallow copy), so that keeping one listed object
		// does not keep the whole page, with every stale object in it, alive.
		if err := meta.EachListItemWithAlloc(list, func(obj runtime.Object) error {
			if keep == nil {
				items = append(items, obj)
			} else if kept, ok := keep(obj); ok {
				items = append(items, kept)
			}
			return nil
		}); err != nil {
			return nil, "", err
		}
		if listMeta.GetContinue() == "" || pageSize == 0 {
			return items, listMeta.GetResourceVersion(), nil
		}
		// The continue token pins the snapshot; a resourceVersion must not be sent with it.
		options.Continue = listMeta.GetContinue()
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
	}
}

// isNil reports whether obj is nil or a nil pointer, which a buggy ListerWatcher may return.
func isNil(obj any) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
