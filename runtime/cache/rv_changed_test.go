package cache

import (
	"testing"
)

func TestResourceVersionChanged(t *testing.T) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{}).(*keyedStore)
	first := indexer.ResourceVersionChanged()
	if again := indexer.ResourceVersionChanged(); again != first {
		t.Fatal("two readers before a change got different channels")
	}
	select {
	case <-first:
		t.Fatal("the channel is closed before any change")
	default:
	}
	indexer.Bookmark("5")
	<-first // closed by the bookmark
	if indexer.LastStoreSyncResourceVersion() != "5" {
		t.Fatalf("resourceVersion = %q after the bookmark", indexer.LastStoreSyncResourceVersion())
	}
	second := indexer.ResourceVersionChanged()
	select {
	case <-second:
		t.Fatal("the channel handed out after a change is already closed")
	default:
	}
	indexer.items.Replace(map[string]any{}, "7")
	<-second // closed by the relist
}
