// Package propertytest generates random API packages (nested structs, pointers, maps, slices, embedded
// and built-in types, the tags kgen reads, and malformed ones) for its tests, which check that kgen
// generate's output for every good package builds and vets and that every bad one is refused with a
// file:line error and nothing written.
package propertytest
