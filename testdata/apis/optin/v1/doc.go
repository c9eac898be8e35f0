// Package v1 opts single types in to deepcopy-gen (no package tag) and registers its types by hand
// (register-gen needs +groupName, which it leaves out, so it passes code-generator's lint rules too).
package v1
