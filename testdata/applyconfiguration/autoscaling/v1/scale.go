// Package v1 holds the apply configuration of autoscaling/v1 Scale.
package v1

// ScaleApplyConfiguration is an apply configuration for autoscaling/v1 Scale.
type ScaleApplyConfiguration struct {
	Kind       *string                      `json:"kind,omitempty"`
	APIVersion *string                      `json:"apiVersion,omitempty"`
	Spec       *ScaleSpecApplyConfiguration `json:"spec,omitempty"`
}

// ScaleSpecApplyConfiguration is the spec part of a Scale apply configuration.
type ScaleSpecApplyConfiguration struct {
	Replicas *int32 `json:"replicas,omitempty"`
}

// Scale starts an apply configuration for a Scale.
func Scale() *ScaleApplyConfiguration {
	kind, apiVersion := "Scale", "autoscaling/v1"
	return &ScaleApplyConfiguration{Kind: &kind, APIVersion: &apiVersion}
}
