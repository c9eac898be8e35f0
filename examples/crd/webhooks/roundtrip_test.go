package webhooks_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	stablev1 "example.com/crd/api/stable/v1"
	stablev1beta1 "example.com/crd/api/stable/v1beta1"
	"example.com/crd/generated/clientset/versioned"
	"example.com/crd/webhooks"
)

// objectsPerVersion is how many random CronTabs the round trip writes in each version.
const objectsPerVersion = 20

// schedules are valid values for the validating webhook; randfill picks among them.
var schedules = []string{"*/5 * * * *", "0 2 * * *", "@daily", "15 3 1 * 1-5", "@hourly"}

// filler fills CronTabs with random values the schema and the validating webhook accept (schedules,
// non-negative replicas); every other field is random.
func filler(t *testing.T) *randfill.Filler {
	seed := time.Now().UnixNano()
	t.Logf("randfill seed %d", seed)
	return randfill.NewWithSeed(seed).NilChance(0.2).Funcs(
		func(s *stablev1.CronTabSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.CronSpec = schedules[c.Intn(len(schedules))]
			s.Replicas = int32(c.Intn(100))
		},
		func(s *stablev1beta1.CronTabSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Schedule = schedules[c.Intn(len(schedules))]
			s.Replicas = int32(c.Intn(100))
		},
	)
}

// TestRoundTripThroughConversionWebhook writes random CronTabs (spec through create, status through the
// status subresource) as v1 and as v1beta1, and reads each in the other version through the API server
// and its conversion webhook, then in the version it was written in: what is read equals the local
// conversion of what was written (after the mutating webhook's defaults), and reading it back gives
// what was written. Every field of either version has a counterpart, so nothing may be lost.
func TestRoundTripThroughConversionWebhook(t *testing.T) {
	cs := serve(t)
	scheme, err := webhooks.NewScheme()
	if err != nil {
		t.Fatal(err)
	}
	ns := newNamespace(t, cs)
	f := filler(t)
	for i := range objectsPerVersion {
		written := &stablev1.CronTab{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("v1-%d", i)}}
		f.Fill(&written.Spec)
		f.Fill(&written.Status)
		scheme.Default(written)
		if err := writeV1(cs, written); err != nil {
			t.Fatalf("writing %s as v1: %v", written.Name, err)
		}
		var want stablev1beta1.CronTab
		convert(t, scheme, written, &want)
		checkBoth(t, scheme, cs, written.Name, ns, written, &want)
	}
	for i := range objectsPerVersion {
		written := &stablev1beta1.CronTab{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("v1beta1-%d", i)}}
		f.Fill(&written.Spec)
		f.Fill(&written.Status)
		var want stablev1.CronTab
		convert(t, scheme, written, &want)
		scheme.Default(&want) // the mutating webhook defaults the v1 object the API server converts to
		convert(t, scheme, &want, written)
		if err := writeV1beta1(cs, written); err != nil {
			t.Fatalf("writing %s as v1beta1: %v", written.Name, err)
		}
		checkBoth(t, scheme, cs, written.Name, ns, &want, written)
	}
}

// checkBoth reads name in both versions and compares each with what is expected, and each converted
// back to the other version: a field the conversions drop in either direction shows there, even though
// the expected objects come from the same conversions.
func checkBoth(t *testing.T, scheme *runtime.Scheme, cs versioned.Interface, name, ns string, wantV1 *stablev1.CronTab, wantV1beta1 *stablev1beta1.CronTab) {
	t.Helper()
	ctx := context.Background()
	gotV1, err := cs.StableV1().CronTabs(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading %s as v1: %v", name, err)
	}
	if !equality.Semantic.DeepEqual(gotV1.Spec, wantV1.Spec) || !equality.Semantic.DeepEqual(gotV1.Status, wantV1.Status) {
		t.Errorf("%s read as v1:\n got  %+v %+v\n want %+v %+v", name, gotV1.Spec, gotV1.Status, wantV1.Spec, wantV1.Status)
	}
	gotV1beta1, err := cs.StableV1beta1().CronTabs(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading %s as v1beta1: %v", name, err)
	}
	if !equality.Semantic.DeepEqual(gotV1beta1.Spec, wantV1beta1.Spec) || !equality.Semantic.DeepEqual(gotV1beta1.Status, wantV1beta1.Status) {
		t.Errorf("%s read as v1beta1:\n got  %+v %+v\n want %+v %+v", name, gotV1beta1.Spec, gotV1beta1.Status, wantV1beta1.Spec, wantV1beta1.Status)
	}
	var backV1 stablev1.CronTab
	convert(t, scheme, gotV1beta1, &backV1)
	if !equality.Semantic.DeepEqual(backV1.Spec, wantV1.Spec) || !equality.Semantic.DeepEqual(backV1.Status, wantV1.Status) {
		t.Errorf("%s read as v1beta1 and converted to v1:\n got  %+v %+v\n want %+v %+v", name, backV1.Spec, backV1.Status, wantV1.Spec, wantV1.Status)
	}
	var backV1beta1 stablev1beta1.CronTab
	convert(t, scheme, gotV1, &backV1beta1)
	if !equality.Semantic.DeepEqual(backV1beta1.Spec, wantV1beta1.Spec) || !equality.Semantic.DeepEqual(backV1beta1.Status, wantV1beta1.Status) {
		t.Errorf("%s read as v1 and converted to v1beta1:\n got  %+v %+v\n want %+v %+v", name, backV1beta1.Spec, backV1beta1.Status, wantV1beta1.Spec, wantV1beta1.Status)
	}
}

// writeV1 creates ct and then sets its status through the status subresource.
func writeV1(cs versioned.Interface, ct *stablev1.CronTab) error {
	ctx := context.Background()
	created, err := cs.StableV1().CronTabs(ct.Namespace).Create(ctx, ct, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	created.Status = ct.Status
	_, err = cs.StableV1().CronTabs(ct.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	return err
}

// writeV1beta1 is writeV1 in v1beta1.
func writeV1beta1(cs versioned.Interface, ct *stablev1beta1.CronTab) error {
	ctx := context.Background()
	created, err := cs.StableV1beta1().CronTabs(ct.Namespace).Create(ctx, ct, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	created.Status = ct.Status
	_, err = cs.StableV1beta1().CronTabs(ct.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	return err
}

// convert converts in to out with the scheme's conversions, as the webhook does.
func convert(t *testing.T, scheme *runtime.Scheme, in, out runtime.Object) {
	t.Helper()
	if err := scheme.Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
}
