package legacy

// Tagged gets a definition.
// +k8s:openapi-gen=true
type Tagged struct {
	// Ref refers to another package's type by import path.
	Ref *Other `json:"ref,omitempty"`
}

// Other gets a definition too.
// +k8s:openapi-gen=true
type Other struct {
	Value string `json:"value"`
}

// Untagged gets none.
type Untagged struct {
	Value string `json:"value"`
}
