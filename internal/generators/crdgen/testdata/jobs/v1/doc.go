// +groupName=batch.example.com

// Package v1 is an API that embeds a JobTemplateSpec, and so reaches k8s.io/api/core/v1 only through
// k8s.io/api/batch/v1, and reaches its own package inner only through its package shared.
package v1
