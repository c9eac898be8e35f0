package demo

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"k8s.io/klog/v2/ktesting"

	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{CRDs: []any{"../config/crd"}}, &env))
}

// TestWalkThrough runs the main job's walk-through against a real kube-apiserver: every step waits for the
// state it prints, so a controller that misses any of them fails here.
func TestWalkThrough(t *testing.T) {
	logger, _ := ktesting.NewTestContext(t)
	var out bytes.Buffer
	if err := Run(context.Background(), env.Config(), logger, &out); err != nil {
		t.Fatalf("%v\noutput so far:\n%s", err, out.String())
	}
	for _, want := range []string{
		`CronJob default/backup applied: schedule "*/5 * * * *", image "backup:1", parallelism 2, controlled by CronTab backup, fields owned by [crontab-controller (Apply)]`,
		`CronTab status: cronJobName "backup", observedGeneration 1`,
		`CronJob default/backup re-applied: image "backup:2"`,
		`CronJob default/backup restored: schedule "*/5 * * * *"`,
		`Event Warning ErrResourceExists on CronTab report`,
		`CronJob default/report untouched: image "report:1"`,
		`Event Normal Synced on CronTab backup`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
