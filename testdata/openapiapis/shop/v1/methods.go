package v1

import "k8s.io/kube-openapi/pkg/common"

// Custom gives its own definition.
type Custom struct {
	A string `json:"a"`
}

// OpenAPIDefinition is Custom's definition.
func (Custom) OpenAPIDefinition() common.OpenAPIDefinition { return common.OpenAPIDefinition{} }

// Both gives its OpenAPI v2 and v3 definitions.
type Both struct{}

// OpenAPIDefinition is Both's v2 definition.
func (Both) OpenAPIDefinition() common.OpenAPIDefinition { return common.OpenAPIDefinition{} }

// OpenAPIV3Definition is Both's v3 definition.
func (Both) OpenAPIV3Definition() common.OpenAPIDefinition { return common.OpenAPIDefinition{} }

// V3Only gives its v3 definition only.
type V3Only struct{}

// OpenAPIV3Definition is V3Only's definition.
func (V3Only) OpenAPIV3Definition() common.OpenAPIDefinition { return common.OpenAPIDefinition{} }

// Formatted is a string in v2 and has its own v3 definition.
type Formatted struct{}

// OpenAPISchemaType is Formatted's type.
func (Formatted) OpenAPISchemaType() []string { return []string{"string"} }

// OpenAPISchemaFormat is Formatted's format.
func (Formatted) OpenAPISchemaFormat() string { return "formatted" }

// OpenAPIV3Definition is Formatted's v3 definition.
func (Formatted) OpenAPIV3Definition() common.OpenAPIDefinition { return common.OpenAPIDefinition{} }

// Either is a string in v2 and one of several types in v3.
type Either struct{}

// OpenAPISchemaType is Either's v2 type.
func (Either) OpenAPISchemaType() []string { return []string{"string"} }

// OpenAPISchemaFormat is Either's v2 format.
func (Either) OpenAPISchemaFormat() string { return "either" }

// OpenAPIV3OneOfTypes are Either's v3 types.
func (Either) OpenAPIV3OneOfTypes() []string { return []string{"number", "string"} }

// Uses refers to the types above.
type Uses struct {
	Custom    Custom    `json:"custom"`
	Both      *Both     `json:"both,omitempty"`
	Formatted Formatted `json:"formatted"`
	Either    []Either  `json:"either"`
	Only      *V3Only   `json:"only,omitempty"`
}
