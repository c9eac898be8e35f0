package defaultergen

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/testdata/defaults/common"
	v1 "github.com/kgen-dev/kgen/testdata/defaults/v1"
	"github.com/kgen-dev/kgen/testdata/defaults/v1input"
)

func ptr[T any](v T) *T { return &v }

// TestGeneratedDefaultersDefault runs the golden test API's generated defaulters through a scheme, as an
// API server does: every hand-written function and +default takes effect where the tags say.
func TestGeneratedDefaultersDefault(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := v1.RegisterDefaults(scheme); err != nil {
		t.Fatal(err)
	}
	w := &v1.Widget{Spec: v1.WidgetSpec{
		Zero:    0,
		Ports:   []v1.Port{{}, {Port: 1, Protocol: "UDP"}},
		Backups: []*v1.Backup{nil, {}},
		Levels:  []v1.Level{"", "debug"},
		ByName:  map[string]v1.Level{"a": "", "b": "warn"},
	}}
	list := &v1.WidgetList{Items: []v1.Widget{*w}}
	scheme.Default(w)
	want := v1.WidgetSpec{
		Class: "standard", Mode: v1.ModeFast, Replicas: ptr(int32(2)), Enabled: ptr(true), Ratio: 0.5,
		Labels: map[string]string{"app": "widget"}, Tags: []string{"a", "b"},
		Primary:  &v1.Port{Port: 80, Protocol: "TCP"},
		Ports:    []v1.Port{{Port: 8080, Protocol: "TCP"}, {Port: 1, Protocol: "UDP"}},
		Backups:  []*v1.Backup{nil, {Keep: 3, Schedule: "@daily"}},
		Levels:   []v1.Level{"info", "debug"},
		LevelPtr: ptr(v1.Level("info")),
		ByName:   map[string]v1.Level{"a": "info", "b": "warn"},
		Limits:   common.Limits{Max: ptr(int32(10))},
		// The covering SetDefaults_Covered sets the port; Port's own defaults are not applied below it.
		Covered: v1.Covered{Port: v1.Port{Port: 443}},
	}
	if !reflect.DeepEqual(w.Spec, want) {
		t.Errorf("defaulted spec =\n%+v\nwant\n%+v", w.Spec, want)
	}
	scheme.Default(list)
	if !reflect.DeepEqual(list.Items[0].Spec, want) {
		t.Errorf("list item defaulted to\n%+v\nwant\n%+v", list.Items[0].Spec, want)
	}
	gauges := &v1.GaugeList{Items: []v1.Gauge{{}}}
	scheme.Default(gauges)
	if gauges.Items[0].Value != 1 {
		t.Errorf("the hand-written object defaulter of Gauge did not run: %+v", gauges)
	}
	s := &v1.Standalone{}
	scheme.Default(s)
	if s.Port != (v1.Port{Port: 8080, Protocol: "TCP"}) {
		t.Errorf("switched-on Standalone defaulted to %+v", s)
	}
	if _, ok := any(&v1.Ignored{}).(interface{ SetObjectDefaults_Ignored() }); ok || hasObjectDefaulter("Ignored") {
		t.Error("switched-off Ignored has an object defaulter")
	}

	input := runtime.NewScheme()
	if err := v1input.RegisterDefaults(input); err != nil {
		t.Fatal(err)
	}
	w2 := &v1.Widget{}
	input.Default(w2)
	if w2.Name != "widget" || w2.Spec.Class != "standard" {
		t.Errorf("+k8s:defaulter-gen-input defaulters gave %+v", w2)
	}
	w3 := &v1.Widget{}
	scheme.Default(w3)
	if w3.Name != "" {
		t.Errorf("v1's defaulters called v1input's SetDefaults_Widget: %+v", w3)
	}
}

// hasObjectDefaulter reports whether the generated file of the golden test API declares
// SetObjectDefaults_<name>.
func hasObjectDefaulter(name string) bool {
	src, err := os.ReadFile("../../../testdata/defaults/v1/zz_generated.defaults.go")
	return err != nil || strings.Contains(string(src), "func SetObjectDefaults_"+name+"(")
}
