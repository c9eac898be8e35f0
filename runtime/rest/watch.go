package rest

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// newStreamWatcher decodes a watch response body with the framing and serializer of its content type.
func (r *Request) newStreamWatcher(ctx context.Context, resp *http.Response) (watch.Interface, error) {
	contentType := resp.Header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		klog.FromContext(ctx).V(4).Info("Unexpected content type from the server", "contentType", contentType, "err", err)
	}
	if r.content.Negotiator == nil {
		return nil, fmt.Errorf("cannot decode a watch stream: the client has no serializer")
	}
	objectDecoder, streamSerializer, framer, err := r.content.Negotiator.StreamDecoder(mediaType, params)
	if err != nil {
		return nil, err
	}
	r.handleWarnings(ctx, resp)
	frames := streaming.NewDecoder(framer.NewFrameReader(resp.Body), streamSerializer)
	return watch.NewStreamWatcherWithLogger(
		klog.FromContext(ctx),
		NewWatchEventDecoder(frames, objectDecoder),
		apierrors.NewClientErrorReporter(http.StatusInternalServerError, r.verb, "ClientWatchDecoding"),
	), nil
}

// WatchEventDecoder turns framed metav1.WatchEvents into watch events. A malformed frame yields an
// error (which the stream watcher reports as an Error event), never a panic.
type WatchEventDecoder struct {
	frames  streaming.Decoder
	objects runtime.Decoder
	closed  atomic.Bool
}

// NewWatchEventDecoder returns a decoder reading WatchEvent frames from frames and decoding their
// embedded objects with objects.
func NewWatchEventDecoder(frames streaming.Decoder, objects runtime.Decoder) *WatchEventDecoder {
	return &WatchEventDecoder{frames: frames, objects: objects}
}

// Decode returns the next event type and object.
func (d *WatchEventDecoder) Decode() (eventType watch.EventType, obj runtime.Object, err error) {
	defer func() {
		if p := recover(); p != nil {
			eventType, obj, err = "", nil, fmt.Errorf("malformed watch event: %v", p)
		}
	}()
	var event metav1.WatchEvent
	res, _, err := d.frames.Decode(nil, &event)
	if err != nil {
		if d.closed.Load() {
			// Reading a stream the caller stopped fails; that is the normal end, not an error event.
			return "", nil, io.EOF
		}
		return "", nil, err
	}
	if res != &event {
		return "", nil, fmt.Errorf("unable to decode to metav1.WatchEvent, got %T", res)
	}
	switch t := watch.EventType(event.Type); t {
	case watch.Added, watch.Modified, watch.Deleted, watch.Error, watch.Bookmark:
	default:
		return "", nil, fmt.Errorf("got invalid watch event type: %q", event.Type)
	}
	if len(event.Object.Raw) == 0 {
		return "", nil, fmt.Errorf("watch event %q has no object", event.Type)
	}
	obj, err = runtime.Decode(d.objects, event.Object.Raw)
	if err != nil {
		return "", nil, fmt.Errorf("unable to decode watch event object: %w", err)
	}
	return watch.EventType(event.Type), obj, nil
}

// Close closes the underlying stream.
func (d *WatchEventDecoder) Close() {
	d.closed.Store(true)
	_ = d.frames.Close()
}
