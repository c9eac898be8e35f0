// +groupName=optin.kgen.dev

// Package v1 opts single types in to deepcopy-gen (no package tag) and registers its types by hand, so
// register-gen leaves it alone.
package v1
