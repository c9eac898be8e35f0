// Package v1 has a malformed tag for applyconfiguration-gen's error tests.
// +groupName=bad.kgen.dev
package v1
