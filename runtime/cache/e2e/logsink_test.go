package e2e_test

import (
	"fmt"
	"sync"

	"github.com/go-logr/logr"
)

// logLine is one recorded log call; level -1 is an error.
type logLine struct {
	level int
	msg   string
	text  string // the key/value pairs as printed
}

// recordingSink is a logr.LogSink that keeps every line at every verbosity, so tests can check what an
// operator sees at the default verbosity and that no credential appears at any.
type recordingSink struct {
	values []any
	lines  *[]logLine
	lock   *sync.Mutex
}

func newRecordingSink() *recordingSink {
	return &recordingSink{lines: &[]logLine{}, lock: &sync.Mutex{}}
}

func (s *recordingSink) Init(logr.RuntimeInfo) {}
func (s *recordingSink) Enabled(int) bool      { return true }
func (s *recordingSink) WithValues(kv ...any) logr.LogSink {
	return &recordingSink{values: append(append([]any(nil), s.values...), kv...), lines: s.lines, lock: s.lock}
}
func (s *recordingSink) WithName(string) logr.LogSink { return s }
func (s *recordingSink) Info(level int, msg string, kv ...any) {
	s.add(level, msg, kv)
}
func (s *recordingSink) Error(err error, msg string, kv ...any) {
	s.add(-1, msg, append(kv, "err", err))
}

func (s *recordingSink) add(level int, msg string, kv []any) {
	text := fmt.Sprint(append(append([]any(nil), s.values...), kv...)...)
	s.lock.Lock()
	defer s.lock.Unlock()
	*s.lines = append(*s.lines, logLine{level: level, msg: msg, text: text})
}

// all returns every recorded line.
func (s *recordingSink) all() []logLine {
	s.lock.Lock()
	defer s.lock.Unlock()
	return append([]logLine(nil), *s.lines...)
}
