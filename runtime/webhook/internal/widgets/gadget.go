package widgets

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
)

// GadgetV1 is Gadget version v1.
type GadgetV1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetV1Spec `json:"spec"`
}

// GadgetV1Spec is v1's spec.
type GadgetV1Spec struct {
	Mode  string `json:"mode,omitempty"`
	Limit int32  `json:"limit,omitempty"`
}

// GadgetV1List is a list of v1 gadgets.
type GadgetV1List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GadgetV1 `json:"items"`
}

// GadgetV2 is Gadget version v2: policy for mode, limits.max for limit.
type GadgetV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetV2Spec `json:"spec"`
}

// GadgetV2Spec is v2's spec.
type GadgetV2Spec struct {
	Policy string       `json:"policy,omitempty"`
	Limits GadgetLimits `json:"limits"`
}

// GadgetLimits holds v2's limits.
type GadgetLimits struct {
	Max int32 `json:"max,omitempty"`
}

// GadgetV2List is a list of v2 gadgets.
type GadgetV2List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GadgetV2 `json:"items"`
}

// GadgetInternal is the internal version every Gadget version converts
// through.
type GadgetInternal struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Mode string
	Max  int32
}

// BadMode is a mode the v1 conversion refuses.
const BadMode = "bad"

// Convert_v1_Gadget_To_widgets_Gadget converts v1 to the internal version.
func Convert_v1_Gadget_To_widgets_Gadget(in *GadgetV1, out *GadgetInternal, _ conversion.Scope) error {
	if in.Spec.Mode == BadMode {
		return fmt.Errorf("widgets: mode %q does not convert", BadMode)
	}
	out.ObjectMeta, out.Mode, out.Max = in.ObjectMeta, in.Spec.Mode, in.Spec.Limit
	return nil
}

// Convert_widgets_Gadget_To_v1_Gadget converts the internal version to v1.
func Convert_widgets_Gadget_To_v1_Gadget(in *GadgetInternal, out *GadgetV1, _ conversion.Scope) error {
	out.ObjectMeta, out.Spec = in.ObjectMeta, GadgetV1Spec{Mode: in.Mode, Limit: in.Max}
	return nil
}

// Convert_v2_Gadget_To_widgets_Gadget converts v2 to the internal version.
func Convert_v2_Gadget_To_widgets_Gadget(in *GadgetV2, out *GadgetInternal, _ conversion.Scope) error {
	out.ObjectMeta, out.Mode, out.Max = in.ObjectMeta, in.Spec.Policy, in.Spec.Limits.Max
	return nil
}

// Convert_widgets_Gadget_To_v2_Gadget converts the internal version to v2.
func Convert_widgets_Gadget_To_v2_Gadget(in *GadgetInternal, out *GadgetV2, _ conversion.Scope) error {
	out.ObjectMeta, out.Spec = in.ObjectMeta, GadgetV2Spec{Policy: in.Mode, Limits: GadgetLimits{Max: in.Max}}
	return nil
}

func registerGadgetConversions(s *runtime.Scheme) error {
	for _, f := range []struct {
		a, b any
		fn   conversion.ConversionFunc
	}{
		{(*GadgetV1)(nil), (*GadgetInternal)(nil), func(a, b any, scope conversion.Scope) error {
			return Convert_v1_Gadget_To_widgets_Gadget(a.(*GadgetV1), b.(*GadgetInternal), scope)
		}},
		{(*GadgetInternal)(nil), (*GadgetV1)(nil), func(a, b any, scope conversion.Scope) error {
			return Convert_widgets_Gadget_To_v1_Gadget(a.(*GadgetInternal), b.(*GadgetV1), scope)
		}},
		{(*GadgetV2)(nil), (*GadgetInternal)(nil), func(a, b any, scope conversion.Scope) error {
			return Convert_v2_Gadget_To_widgets_Gadget(a.(*GadgetV2), b.(*GadgetInternal), scope)
		}},
		{(*GadgetInternal)(nil), (*GadgetV2)(nil), func(a, b any, scope conversion.Scope) error {
			return Convert_widgets_Gadget_To_v2_Gadget(a.(*GadgetInternal), b.(*GadgetV2), scope)
		}},
	} {
		if err := s.AddGeneratedConversionFunc(f.a, f.b, f.fn); err != nil {
			return err
		}
	}
	return nil
}

// DeepCopyObject implements runtime.Object.
func (g *GadgetV1) DeepCopyObject() runtime.Object { return deepCopy(g) }

// DeepCopyObject implements runtime.Object.
func (g *GadgetV1List) DeepCopyObject() runtime.Object { return deepCopy(g) }

// DeepCopyObject implements runtime.Object.
func (g *GadgetV2) DeepCopyObject() runtime.Object { return deepCopy(g) }

// DeepCopyObject implements runtime.Object.
func (g *GadgetV2List) DeepCopyObject() runtime.Object { return deepCopy(g) }

// DeepCopyObject implements runtime.Object.
func (g *GadgetInternal) DeepCopyObject() runtime.Object { return deepCopy(g) }

// deepCopy copies through JSON; the test types hold nothing JSON loses.
func deepCopy[T any](in *T) *T {
	data, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(data, out); err != nil {
		panic(err)
	}
	return out
}
