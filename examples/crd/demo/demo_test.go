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
	os.Exit(testenv.Main(m, TestenvOptions(".."), &env))
}

// TestWalkThrough runs the main job's walk-through against a real kube-apiserver: every step waits for the
// state it prints, so a controller that misses any of them fails here.
func TestWalkThrough(t *testing.T) {
	logger, _ := ktesting.NewTestContext(t)
	ctx, stop := context.WithCancel(context.Background())
	done, err := ServeWebhooks(ctx, env)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("webhook server: %v", err)
		}
	}()
	var out bytes.Buffer
	if err := Run(ctx, env.Config(), logger, &out); err != nil {
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
		`read as v1 (the conversion webhook): cronSpec "0 2 * * *", image "nightly:1", labels map[team:ops]`,
		`replicas 1: the default the mutating webhook applied`,
		`read back as v1beta1: schedule "0 2 * * *", image "nightly:1", replicas 1`,
		`CronJob default/nightly applied: schedule "0 2 * * *", parallelism 1`,
		`admission webhook "vcrontab-v1.stable.example.com" denied the request: CronTab.stable.example.com "sometimes" is invalid: spec.cronSpec: Invalid value: "now and then": 3 fields, want 5`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
