// Package v1 holds apply configurations for example.kgen.dev/v1.
package v1

// ObjectMetaApplyConfiguration is the metadata part of an apply configuration.
type ObjectMetaApplyConfiguration struct {
	Name      *string           `json:"name,omitempty"`
	Namespace *string           `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// SpecApplyConfiguration is the spec part of a TestType or ClusterTestType apply configuration.
type SpecApplyConfiguration struct {
	Replicas *int32  `json:"replicas,omitempty"`
	Message  *string `json:"message,omitempty"`
}

// StatusApplyConfiguration is the status part of a TestType or ClusterTestType apply configuration.
type StatusApplyConfiguration struct {
	Replicas *int32  `json:"replicas,omitempty"`
	Selector *string `json:"selector,omitempty"`
	Phase    *string `json:"phase,omitempty"`
}

// TestTypeApplyConfiguration is an apply configuration for TestType.
type TestTypeApplyConfiguration struct {
	Kind                          *string `json:"kind,omitempty"`
	APIVersion                    *string `json:"apiVersion,omitempty"`
	*ObjectMetaApplyConfiguration `json:"metadata,omitempty"`
	Spec                          *SpecApplyConfiguration   `json:"spec,omitempty"`
	Status                        *StatusApplyConfiguration `json:"status,omitempty"`
}

// TestType starts an apply configuration for the named TestType.
func TestType(name, namespace string) *TestTypeApplyConfiguration {
	return &TestTypeApplyConfiguration{
		Kind: ptr("TestType"), APIVersion: ptr("example.kgen.dev/v1"),
		ObjectMetaApplyConfiguration: &ObjectMetaApplyConfiguration{Name: &name, Namespace: &namespace},
	}
}

// GetName returns the name, or nil if none is set.
func (c *TestTypeApplyConfiguration) GetName() *string {
	if c.ObjectMetaApplyConfiguration == nil {
		return nil
	}
	return c.Name
}

// ClusterTestTypeApplyConfiguration is an apply configuration for ClusterTestType.
type ClusterTestTypeApplyConfiguration struct {
	Kind                          *string `json:"kind,omitempty"`
	APIVersion                    *string `json:"apiVersion,omitempty"`
	*ObjectMetaApplyConfiguration `json:"metadata,omitempty"`
	Spec                          *SpecApplyConfiguration   `json:"spec,omitempty"`
	Status                        *StatusApplyConfiguration `json:"status,omitempty"`
}

// ClusterTestType starts an apply configuration for the named ClusterTestType.
func ClusterTestType(name string) *ClusterTestTypeApplyConfiguration {
	return &ClusterTestTypeApplyConfiguration{
		Kind: ptr("ClusterTestType"), APIVersion: ptr("example.kgen.dev/v1"),
		ObjectMetaApplyConfiguration: &ObjectMetaApplyConfiguration{Name: &name},
	}
}

// GetName returns the name, or nil if none is set.
func (c *ClusterTestTypeApplyConfiguration) GetName() *string {
	if c.ObjectMetaApplyConfiguration == nil {
		return nil
	}
	return c.Name
}

func ptr[T any](v T) *T { return &v }
