// Package inner is a package of the project the API imports only through package shared: the API's
// export data knows inner's types it uses, not its constants.
package inner

// Policy is a retry policy.
// +k8s:enum
type Policy string

// The policies.
const (
	PolicyNever  Policy = "Never"
	PolicyAlways Policy = "Always"
)

// DefaultLimit is the default retry limit.
const DefaultLimit = 3

// Retry says how to retry.
type Retry struct {
	// Policy is the retry policy.
	// +default=ref(PolicyAlways)
	// +optional
	Policy Policy `json:"policy,omitempty"`
	// Limit caps the retries.
	// +default=ref(DefaultLimit)
	// +optional
	Limit int32 `json:"limit,omitempty"`
}
