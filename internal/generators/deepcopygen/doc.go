// Package deepcopygen generates DeepCopyInto, DeepCopy and DeepCopy<Interface> methods for API types,
// with code-generator's deepcopy-gen tags, rules and output.
//
// Tags: +k8s:deepcopy-gen=package|false in doc.go; +k8s:deepcopy-gen=true|false,
// +k8s:deepcopy-gen:interfaces=<import path>.<Interface>[,...] and
// +k8s:deepcopy-gen:nonpointer-interfaces=true on a type. As in code-generator, only hand-written methods
// count: a hand-written DeepCopyInto or DeepCopy suppresses its generated twin, and methods of generated
// files (also in dependencies) are ignored when deciding how to copy a field.
//
// For every package of k8s.io/api v0.37.2 and apimachinery's meta/v1, runtime, api/resource and
// util/intstr, the output after the header is byte-identical to the zz_generated.deepcopy.go files those
// modules ship (TestEquivalence). Where the output differs from code-generator's, it is on purpose:
//
//   - A field that cannot be deep-copied (chan, func, interface{}, an interface without a
//     DeepCopy<Interface> method, a map key that is not a value type, a type without the DeepCopy or
//     DeepCopyInto method the copy calls and that this run does not generate) is an error naming the
//     field at its file:line, and nothing is written. code-generator stops with a message that names no
//     position, or writes code that does not compile.
//   - Arrays whose elements are pointers, slices, maps, interfaces or structs with reference fields are
//     copied element by element after the assignment. code-generator assigns the array only, so the copy
//     shares those elements with the original (no API package in k8s.io/api has such an array).
//   - A +k8s:deepcopy-gen tag above the package clause of a file other than doc.go is reported as a
//     warning; code-generator ignores it silently.
//   - The file is formatted with go/format; code-generator runs goimports and gofmt -s, which make no
//     difference to this output.
package deepcopygen
