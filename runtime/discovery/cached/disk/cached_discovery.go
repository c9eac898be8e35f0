// Package disk caches discovery answers in files, so that short-lived programs (command-line tools,
// jobs) do not rediscover the whole API on every run: each answer is kept for a time to live, and
// with an HTTP cache directory the underlying requests are revalidated with ETags once it passes.
// Its surface mirrors client-go's discovery/cached/disk, and its files use the same names and
// format, so a cache directory can be shared with kubectl.
package disk

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// CachedDiscoveryClient answers discovery from files under a directory, fetching through a delegate
// what is missing, unreadable or older than the time to live.
type CachedDiscoveryClient struct {
	delegate       discovery.DiscoveryInterface
	cacheDirectory string
	ttl            time.Duration

	mu sync.Mutex
	// ourFiles are the files this client wrote since it was created or last invalidated.
	ourFiles map[string]struct{}
	// invalidated makes files this client did not write count as missing.
	invalidated bool
	// fresh stays true while every answer came from the server or from ourFiles.
	fresh bool
}

var _ discovery.CachedDiscoveryInterface = &CachedDiscoveryClient{}

// NewCachedDiscoveryClientForConfig returns a cached discovery client for config that keeps answers
// in discoveryCacheDir for ttl. With a non-empty httpCacheDir, discovery responses are also kept
// there and revalidated with the server's ETags, which makes refreshing an expired answer cheap.
func NewCachedDiscoveryClientForConfig(config *rest.Config, discoveryCacheDir, httpCacheDir string, ttl time.Duration) (*CachedDiscoveryClient, error) {
	if httpCacheDir != "" {
		config = rest.CopyConfig(config)
		wrap := config.WrapTransport
		config.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
			if wrap != nil {
				rt = wrap(rt)
			}
			return newCacheRoundTripper(httpCacheDir, rt)
		}
	}
	client, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	return NewCachedDiscoveryClient(client, discoveryCacheDir, ttl), nil
}

// NewCachedDiscoveryClient returns a client that caches delegate's answers in cacheDirectory for ttl.
func NewCachedDiscoveryClient(delegate discovery.DiscoveryInterface, cacheDirectory string, ttl time.Duration) *CachedDiscoveryClient {
	return &CachedDiscoveryClient{
		delegate:       delegate,
		cacheDirectory: cacheDirectory,
		ttl:            ttl,
		ourFiles:       map[string]struct{}{},
		fresh:          true,
	}
}

// ServerGroups returns the groups from servergroups.json, fetching and writing it when needed.
func (d *CachedDiscoveryClient) ServerGroups() (*metav1.APIGroupList, error) {
	return cached(d, filepath.Join(d.cacheDirectory, "servergroups.json"), "APIGroupList", &metav1.APIGroupList{},
		d.delegate.ServerGroups, func(l *metav1.APIGroupList) bool { return l != nil && len(l.Groups) > 0 })
}

// ServerResourcesForGroupVersion returns the resources from <groupVersion>/serverresources.json,
// fetching and writing it when needed.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return cached(d, filepath.Join(d.cacheDirectory, filepath.FromSlash(groupVersion), "serverresources.json"), "APIResourceList", &metav1.APIResourceList{},
		func() (*metav1.APIResourceList, error) {
			return d.delegate.ServerResourcesForGroupVersion(groupVersion)
		},
		func(l *metav1.APIResourceList) bool { return l != nil && len(l.APIResources) > 0 })
}

// cached returns the answer in filename, decoded into empty, if it is usable; else it fetches the
// answer and writes it, as a v1 object of kind, when keep says it is worth keeping (not empty). A
// failed write is only logged.
func cached[L runtime.Object](d *CachedDiscoveryClient, filename, kind string, empty L, fetch func() (L, error), keep func(L) bool) (L, error) {
	if data, err := d.read(filename); err == nil && json.Unmarshal(data, empty) == nil {
		return empty, nil
	}
	list, err := fetch()
	if err != nil || !keep(list) {
		return list, err
	}
	list.GetObjectKind().SetGroupVersionKind(schema.GroupVersion{Version: "v1"}.WithKind(kind))
	if err := d.write(filename, list); err != nil {
		klog.V(1).Info("Failed to write the discovery cache", "file", filename, "err", err)
	}
	return list, nil
}

// read returns the content of filename unless it expired or, after Invalidate, another client wrote it.
func (d *CachedDiscoveryClient) read(filename string) ([]byte, error) {
	d.mu.Lock()
	_, ours := d.ourFiles[filename]
	invalidated := d.invalidated
	d.mu.Unlock()
	if invalidated && !ours {
		return nil, errors.New("the cache was invalidated")
	}
	info, err := os.Stat(filename)
	if err != nil {
		return nil, err
	}
	if time.Since(info.ModTime()) > d.ttl {
		return nil, errors.New("the cached answer expired")
	}
	data, err := os.ReadFile(filename)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.fresh = d.fresh && ours
	d.mu.Unlock()
	return data, nil
}

// write stores obj in filename and remembers the file as this client's.
func (d *CachedDiscoveryClient) write(filename string, obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if err := writeFile(filename, data); err != nil {
		return err
	}
	d.mu.Lock()
	d.ourFiles[filename] = struct{}{}
	d.mu.Unlock()
	return nil
}

// writeFile writes data to filename atomically (a temporary file renamed over it), readable and
// writable by the owner and group only, creating its directory.
func writeFile(filename string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(filename), 0o750); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(filename), filepath.Base(filename)+".")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Chmod(0o660), f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return os.Rename(f.Name(), filename)
}

// ServerGroupsAndResources returns every group and the resources of each of its versions, from the cache.
func (d *CachedDiscoveryClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResources(d)
}

// ServerPreferredResources returns each resource once, in its most preferred version, from the cache.
func (d *CachedDiscoveryClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResources(d)
}

// ServerPreferredNamespacedResources is ServerPreferredResources restricted to namespaced resources.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResources(d)
}

// ServerVersion asks the server; the version is not cached.
func (d *CachedDiscoveryClient) ServerVersion() (*version.Info, error) {
	return d.delegate.ServerVersion()
}

// RESTClient returns the delegate's REST client.
func (d *CachedDiscoveryClient) RESTClient() rest.Interface { return d.delegate.RESTClient() }

// WithLegacy returns the client itself: cached answers are per group version already.
func (d *CachedDiscoveryClient) WithLegacy() discovery.DiscoveryInterface { return d }

// Fresh reports whether every answer so far came from the server or from files this client wrote
// since it was created or last invalidated.
func (d *CachedDiscoveryClient) Fresh() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fresh
}

// Invalidate makes the client ignore files it did not write from now on, and invalidates the
// delegate if it caches too.
func (d *CachedDiscoveryClient) Invalidate() {
	d.mu.Lock()
	d.ourFiles = map[string]struct{}{}
	d.fresh = true
	d.invalidated = true
	d.mu.Unlock()
	if c, ok := d.delegate.(discovery.CachedDiscoveryInterface); ok {
		c.Invalidate()
	}
}
