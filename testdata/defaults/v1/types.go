package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/testdata/defaults/common"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Widget is an object with defaults at every depth.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// Mode is how a widget runs.
type Mode string

// The modes.
const (
	ModeFast Mode = "fast"
	ModeSlow Mode = "slow"
)

// DefaultReplicas is the replica count a widget gets.
const DefaultReplicas = 2

// Level is a log level; unset elements of slices and pointers to it become "info".
// +default="info"
type Level string

// WidgetSpec is what a widget is.
type WidgetSpec struct {
	// +default="standard"
	Class string `json:"class,omitempty"`
	// +default=ref(ModeFast)
	Mode Mode `json:"mode,omitempty"`
	// +default=ref(DefaultReplicas)
	Replicas *int32 `json:"replicas,omitempty"`
	// +default=true
	Enabled *bool `json:"enabled,omitempty"`
	// +default=0.5
	Ratio float64 `json:"ratio,omitempty"`
	// A zero default sets nothing.
	// +default=0
	Zero int32 `json:"zero,omitempty"`
	// +default={"app": "widget"}
	Labels map[string]string `json:"labels,omitempty"`
	// +default=["a", "b"]
	Tags []string `json:"tags,omitempty"`
	// +default={"port": 80}
	Primary *Port `json:"primary,omitempty"`

	Ports    []Port           `json:"ports,omitempty"`
	Backups  []*Backup        `json:"backups,omitempty"`
	Levels   []Level          `json:"levels,omitempty"`
	LevelPtr *Level           `json:"levelPtr,omitempty"`
	ByName   map[string]Level `json:"byName,omitempty"`
	Limits   common.Limits    `json:"limits"`
	Covered  Covered          `json:"covered"`
}

// Port is a network port with a hand-written defaulter.
type Port struct {
	Port int32 `json:"port"`
	// +default="TCP"
	Protocol string `json:"protocol,omitempty"`
}

// Backup has a hand-written base defaulter and an additional one.
type Backup struct {
	Schedule string `json:"schedule,omitempty"`
	Keep     int32  `json:"keep,omitempty"`
}

// Covered has a base defaulter that covers everything below it.
type Covered struct {
	Port Port `json:"port"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WidgetList lists widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Gauge has a hand-written object defaulter: it gets no generated one, and its list calls that one.
type Gauge struct {
	metav1.TypeMeta `json:",inline"`
	Value           int32 `json:"value"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// GaugeList lists gauges.
type GaugeList struct {
	metav1.TypeMeta `json:",inline"`
	Items           []Gauge `json:"items"`
}

// +k8s:defaulter-gen=false

// Ignored has TypeMeta but is switched off.
type Ignored struct {
	metav1.TypeMeta `json:",inline"`
	Spec            WidgetSpec `json:"spec"`
}

// +k8s:defaulter-gen=true

// Standalone has no TypeMeta but is switched on.
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type Standalone struct {
	Port Port `json:"port"`
}

// GetObjectKind makes Standalone a runtime.Object without TypeMeta.
func (s *Standalone) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// Plain has TypeMeta and nothing to default: it gets no object defaulter.
type Plain struct {
	metav1.TypeMeta `json:",inline"`
	Name            string `json:"name"`
}
