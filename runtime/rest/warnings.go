package rest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
)

// WarningHandler is told about each warning the server sends in a Warning response header.
type WarningHandler interface {
	// HandleWarningHeader is called with the warn-code, agent and text of one warning.
	HandleWarningHeader(code int, agent string, text string)
}

// WarningLogger logs warnings through klog.
type WarningLogger struct{}

// HandleWarningHeader logs warnings with code 299.
func (WarningLogger) HandleWarningHeader(code int, agent string, text string) {
	if code != 299 || text == "" {
		return
	}
	klog.Warning(text)
}

// NoWarnings drops every warning.
type NoWarnings struct{}

// HandleWarningHeader does nothing.
func (NoWarnings) HandleWarningHeader(code int, agent string, text string) {}

// WarningWriterOptions tunes NewWarningWriter.
type WarningWriterOptions struct {
	// Deduplicate prints each distinct warning text only once.
	Deduplicate bool
	// Color prints the "Warning:" prefix in yellow.
	Color bool
}

// WarningWriter prints warnings to a writer, optionally deduplicated.
type WarningWriter struct {
	out     io.Writer
	opts    WarningWriterOptions
	mu      sync.Mutex
	count   int
	written map[string]struct{}
}

// NewWarningWriter returns a WarningHandler that prints "Warning: <text>" lines to out.
func NewWarningWriter(out io.Writer, opts WarningWriterOptions) *WarningWriter {
	w := &WarningWriter{out: out, opts: opts}
	if opts.Deduplicate {
		w.written = map[string]struct{}{}
	}
	return w
}

// HandleWarningHeader prints warnings with code 299.
func (w *WarningWriter) HandleWarningHeader(code int, agent string, text string) {
	if code != 299 || text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.opts.Deduplicate {
		if _, seen := w.written[text]; seen {
			return
		}
		w.written[text] = struct{}{}
	}
	w.count++
	prefix := "Warning:"
	if w.opts.Color {
		prefix = "\u001b[33;1mWarning:\u001b[0m"
	}
	fmt.Fprintf(w.out, "%s %s\n", prefix, text)
}

// WarningCount returns the number of warnings printed.
func (w *WarningWriter) WarningCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count
}

var (
	defaultWarningHandlerMu sync.RWMutex
	defaultWarningHandler   WarningHandler = WarningLogger{}
)

// SetDefaultWarningHandler sets the handler used by clients whose Config has no WarningHandler.
func SetDefaultWarningHandler(h WarningHandler) {
	defaultWarningHandlerMu.Lock()
	defer defaultWarningHandlerMu.Unlock()
	defaultWarningHandler = h
}

func getDefaultWarningHandler() WarningHandler {
	defaultWarningHandlerMu.RLock()
	defer defaultWarningHandlerMu.RUnlock()
	return defaultWarningHandler
}

// WarningHandlerWithContext is WarningHandler for handlers that use the request's context, e.g.
// its logger. Config.WarningHandlerWithContext takes precedence over Config.WarningHandler.
type WarningHandlerWithContext interface {
	// HandleWarningHeaderWithContext is called with the context of the request that got the warning.
	HandleWarningHeaderWithContext(ctx context.Context, code int, agent string, text string)
}

// withoutContext adapts a WarningHandler; nil stays nil.
func withoutContext(h WarningHandler) WarningHandlerWithContext {
	if h == nil {
		return nil
	}
	return warningHandlerAdapter{h}
}

type warningHandlerAdapter struct{ WarningHandler }

func (a warningHandlerAdapter) HandleWarningHeaderWithContext(_ context.Context, code int, agent string, text string) {
	a.HandleWarningHeader(code, agent, text)
}

// warningHandlerFor is config's handler: WarningHandlerWithContext, else WarningHandler, else nil
// (the package default).
func warningHandlerFor(config *Config) WarningHandlerWithContext {
	if config.WarningHandlerWithContext != nil {
		return config.WarningHandlerWithContext
	}
	return withoutContext(config.WarningHandler)
}

func handleWarnings(ctx context.Context, h http.Header, handler WarningHandlerWithContext) []utilnet.WarningHeader {
	values := h.Values("Warning")
	if len(values) == 0 {
		return nil
	}
	if handler == nil {
		handler = withoutContext(getDefaultWarningHandler())
	}
	ws, _ := utilnet.ParseWarningHeaders(values)
	for _, w := range ws {
		handler.HandleWarningHeaderWithContext(ctx, w.Code, w.Agent, w.Text)
	}
	return ws
}
