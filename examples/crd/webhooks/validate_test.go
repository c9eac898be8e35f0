package webhooks_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/webhook"

	stablev1 "example.com/crd/api/stable/v1"
	"example.com/crd/webhooks"
)

// TestValidate accepts cron schedules of five fields and the @-macros, and refuses the rest as Invalid
// naming spec.cronSpec.
func TestValidate(t *testing.T) {
	for schedule, want := range map[string]string{
		"*/5 * * * *":   "",
		"0 2 * * 1-5":   "",
		"@daily":        "",
		"@annually":     "",
		"":              "0 fields, want 5",
		"* * * *":       "4 fields, want 5",
		"0 0 * * * *":   "6 fields, want 5",
		"@fortnightly":  "not a schedule macro: want one of @yearly",
		" * *  *\t* * ": "",
	} {
		req := webhook.Request[*stablev1.CronTab]{Object: &stablev1.CronTab{ObjectMeta: metav1.ObjectMeta{Name: "c"},
			Spec: stablev1.CronTabSpec{CronSpec: schedule}}}
		_, err := webhooks.Validate(context.Background(), req)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", schedule, err)
		case want != "" && (!apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.cronSpec") || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: got %v, want Invalid with %q", schedule, err, want)
		}
	}
	if _, err := webhooks.Validate(context.Background(), webhook.Request[*stablev1.CronTab]{}); err != nil {
		t.Errorf("DELETE (no object): %v", err)
	}
}
