// Package shared is a package of the project the API imports directly.
package shared

import "github.com/kgen-dev/kgen/internal/generators/crdgen/testdata/jobs/inner"

// Settings wrap the inner settings.
type Settings struct {
	// Retry says how to retry.
	// +optional
	Retry inner.Retry `json:"retry,omitempty"`
}
