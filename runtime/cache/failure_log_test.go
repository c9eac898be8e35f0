package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// logLine is one recorded log call; level -1 is an error.
type logLine struct {
	level int
	msg   string
	kv    []any
}

// recordingSink is a logr.LogSink that keeps every line at every verbosity.
type recordingSink struct {
	mu    sync.Mutex
	lines []logLine
}

func (s *recordingSink) Init(logr.RuntimeInfo)                 {}
func (s *recordingSink) Enabled(int) bool                      { return true }
func (s *recordingSink) WithValues(...any) logr.LogSink        { return s }
func (s *recordingSink) WithName(string) logr.LogSink          { return s }
func (s *recordingSink) Info(level int, msg string, kv ...any) { s.add(logLine{level, msg, kv}) }
func (s *recordingSink) Error(err error, msg string, kv ...any) {
	s.add(logLine{-1, msg, append(kv, "err", err)})
}
func (s *recordingSink) add(l logLine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, l)
}

// visible returns the lines an operator sees at the default verbosity.
func (s *recordingSink) visible() []logLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []logLine
	for _, l := range s.lines {
		if l.level <= 0 {
			out = append(out, l)
		}
	}
	return out
}

func (s *recordingSink) count(level int, msgPrefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.lines {
		if l.level == level && strings.HasPrefix(l.msg, msgPrefix) {
			n++
		}
	}
	return n
}

func TestTransientFailuresAreLoggedOnceWithACount(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	src.failLists = 1
	src.failWatches = 4
	sink := &recordingSink{}
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, newRecordingStore(), listModeOptions())
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.New(sink)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "recovery logged", func() bool { return sink.count(0, "Watch recovered") == 1 })

	visible := sink.visible()
	if len(visible) != 2 || !strings.HasPrefix(visible[0].msg, "Warning:") || visible[1].msg != "Watch recovered" {
		t.Fatalf("visible log lines = %+v, want one warning and one recovery", visible)
	}
	if got := fmt.Sprint(visible[1].kv); !strings.Contains(got, "failures 5") {
		t.Errorf("recovery line %v does not count the 5 failures", got)
	}
	if n := sink.count(4, "List or watch failed"); n != 4 {
		t.Errorf("%d failures logged at verbosity 4, want 4", n)
	}
}

func TestUnexpectedFailuresAreErrors(t *testing.T) {
	sink := &recordingSink{}
	ctx := klog.NewContext(context.Background(), logr.New(sink))
	r := NewReflectorWithOptions(newSource(), &corev1.ConfigMap{}, newRecordingStore(), listModeOptions())
	DefaultWatchErrorHandler(ctx, r, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "", errors.New("no access")))
	DefaultWatchErrorHandler(ctx, r, apierrors.NewResourceExpired("too old"))
	DefaultWatchErrorHandler(ctx, r, &VeryShortWatchError{Name: "r"})
	DefaultWatchErrorHandler(ctx, r, apierrors.NewTooManyRequests("slow down", 1))
	if n := sink.count(-1, "Failed to list or watch"); n != 1 {
		t.Errorf("%d errors logged, want 1 (the 403)", n)
	}
	if n := sink.count(4, "Watch closed"); n != 1 {
		t.Errorf("410 logged %d times at verbosity 4, want 1", n)
	}
	if n := sink.count(0, "Warning:"); n != 1 {
		t.Errorf("%d warnings for a streak of transient failures, want 1", n)
	}
}
