// Package registergen generates a package's scheme registration (zz_generated.register.go): its group
// and version, scheme builder and addKnownTypes, with code-generator's register-gen identifiers and rules.
package registergen
