package rest

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

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

// Warning is one parsed RFC 7234 Warning header value.
type Warning struct {
	// Code is the warn-code, 299 for Kubernetes deprecation and admission warnings.
	Code int
	// Agent is the warn-agent, usually "-".
	Agent string
	// Text is the unquoted warn-text.
	Text string
}

// parseWarningHeaders parses all Warning header values, skipping malformed ones.
func parseWarningHeaders(headers []string) []Warning {
	var out []Warning
	for _, h := range headers {
		for len(h) > 0 {
			w, rest, ok := parseWarning(h)
			if !ok {
				break
			}
			out = append(out, w)
			h = rest
		}
	}
	return out
}

// parseWarning parses one `code agent "text" [date]` element and returns the remainder after a comma.
func parseWarning(s string) (Warning, string, bool) {
	s = strings.TrimLeft(s, " \t,")
	codeStr, s, ok := strings.Cut(s, " ")
	if !ok {
		return Warning{}, "", false
	}
	code, err := strconv.Atoi(codeStr)
	if err != nil || len(codeStr) != 3 {
		return Warning{}, "", false
	}
	agent, s, ok := strings.Cut(strings.TrimLeft(s, " "), " ")
	if !ok {
		return Warning{}, "", false
	}
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, `"`) {
		return Warning{}, "", false
	}
	var b strings.Builder
	i := 1
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			b.WriteByte(s[i])
			continue
		}
		if c == '"' {
			break
		}
		b.WriteByte(c)
	}
	if i >= len(s) {
		return Warning{}, "", false
	}
	rest := strings.TrimLeft(s[i+1:], " ")
	// Skip an optional quoted warn-date, which may itself contain commas.
	if strings.HasPrefix(rest, `"`) {
		if end := strings.IndexByte(rest[1:], '"'); end >= 0 {
			rest = rest[end+2:]
		} else {
			rest = ""
		}
	}
	if idx := strings.IndexByte(rest, ','); idx >= 0 {
		rest = rest[idx+1:]
	} else {
		rest = ""
	}
	return Warning{Code: code, Agent: agent, Text: b.String()}, rest, true
}

func handleWarnings(h http.Header, handler WarningHandler) []Warning {
	if handler == nil {
		handler = getDefaultWarningHandler()
	}
	ws := parseWarningHeaders(h.Values("Warning"))
	for _, w := range ws {
		handler.HandleWarningHeader(w.Code, w.Agent, w.Text)
	}
	return ws
}
