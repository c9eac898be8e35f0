package disk

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"k8s.io/klog/v2"
)

// cacheRoundTripper keeps GET responses that carry an ETag in a directory and revalidates them: a
// request for a kept response asks the server with If-None-Match, and a 304 answer is served from
// the kept body. Discovery documents rarely change, so refreshing them costs a round trip, not a body.
type cacheRoundTripper struct {
	dir  string
	next http.RoundTripper
}

func newCacheRoundTripper(dir string, next http.RoundTripper) http.RoundTripper {
	return &cacheRoundTripper{dir: dir, next: next}
}

// cachedResponse is a kept response as stored on disk.
type cachedResponse struct {
	ETag   string      `json:"etag"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
}

// RoundTrip implements http.RoundTripper.
func (c *cacheRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Header.Get("Range") != "" {
		return c.next.RoundTrip(req)
	}
	path := c.path(req)
	kept, haveKept := c.load(path)
	if haveKept {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", kept.ETag)
	}
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch {
	case haveKept && resp.StatusCode == http.StatusNotModified:
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return &http.Response{
			Status: "200 OK", StatusCode: http.StatusOK, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
			Header: kept.Header.Clone(), Body: io.NopCloser(bytes.NewReader(kept.Body)), ContentLength: int64(len(kept.Body)),
			Request: req,
		}, nil
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err := c.store(path, cachedResponse{ETag: resp.Header.Get("ETag"), Header: resp.Header.Clone(), Body: body}); err != nil {
			klog.V(1).Info("Failed to keep a discovery response", "url", req.URL.String(), "err", err)
		}
	}
	return resp, nil
}

// path names the file of a request: a hash of its URL and the representations it accepts.
func (c *cacheRoundTripper) path(req *http.Request) string {
	sum := sha256.Sum256([]byte(req.URL.String() + "\n" + req.Header.Get("Accept")))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:]))
}

func (c *cacheRoundTripper) load(path string) (cachedResponse, bool) {
	var kept cachedResponse
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &kept) != nil || kept.ETag == "" {
		return cachedResponse{}, false
	}
	return kept, true
}

// store writes kept to path.
func (c *cacheRoundTripper) store(path string, kept cachedResponse) error {
	data, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return writeFile(path, data)
}
