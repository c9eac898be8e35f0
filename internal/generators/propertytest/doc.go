// Package propertytest generates random API packages (nested structs, pointers, maps, slices, embedded
// and built-in types, the tags kgen reads, and malformed ones) for its tests, which check that kgen
// generate's output for every good package builds and vets, that its schema projections agree (the
// CRDs and the apply configurations' schema on list/map/struct semantics, the CRDs and the OpenAPI
// definitions on required fields), and that every bad one is refused with a file:line error and
// nothing written.
package propertytest
