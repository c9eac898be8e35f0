// Package defaultergen generates object defaulters for API types, with code-generator's defaulter-gen
// tags, rules and output (kube_codegen.sh gen_helpers' defaulter-gen step): per package whose doc.go has
// +k8s:defaulter-gen=<member name>, a file with RegisterDefaults(*runtime.Scheme) error and a
// SetObjectDefaults_<T> for every type that has the member (or is switched on with a detached
// +k8s:defaulter-gen=true) and has something to default, calling the hand-written SetDefaults_<T> and
// SetDefaults_<T>_<suffix> functions of every type below it and setting its fields' +default values.
//
// Tags: +k8s:defaulter-gen=<member>|false and +k8s:defaulter-gen-input=<types package> in doc.go;
// +k8s:defaulter-gen=true|false in the comment block one blank line above a type's doc comment;
// +k8s:defaulter-gen=covers on a hand-written SetDefaults_<T>; +default=<JSON>|ref(<constant>) on a field
// or a named type. Hand-written functions are looked up in the input packages and in ExtraPeerDirs.
//
// On k8s.io/sample-apiserver, kube-aggregator and apiextensions-apiserver v0.37.2, and on code-generator's
// own defaulter-gen test packages, the output is byte-identical to code-generator v0.37.2's. Where it
// differs, it is on purpose:
//
//   - A +default that does not fit its field is an error at its file:line, and nothing is written: JSON
//     that does not parse, a literal of the wrong kind or out of range for the field's builtin type, an
//     object member the field's type has no field for, a ref() to no constant or variable or to one that
//     does not convert, ref() or a JSON document on a field the generated code cannot compare with nil (a
//     struct or array), more than one +default, or one without a value. code-generator stops without a
//     position on bad JSON, and otherwise writes code that does not compile or panics when run.
//   - Hand-written functions of every input package are known before any package is generated, and a
//     package never calls one whose package imports it (an import cycle). code-generator scans the input
//     packages one by one, so a function is invisible to the packages listed before its own.
//   - Additional defaulters (SetDefaults_<T>_<suffix>) are called in name order; code-generator's order
//     follows Go map iteration and changes from run to run.
//   - Two packages defining the same SetDefaults_<T> is an error naming both; code-generator panics.
//   - A +k8s:defaulter-gen=true|false touching a type (which code-generator ignores) is reported as a
//     warning, and still ignored.
//   - An unexported field of another package's struct that would need defaulting is an error; code-generator
//     writes code that does not compile.
//   - A slice loop declares its element variable only when something uses it; code-generator declares it
//     unused (a compile error) when the element's only defaulters sit in map values, which neither
//     descends into.
//
// Like code-generator, map values get only the +default of their type, never calls; a non-pointer field
// of a named builtin type with a +default on the type is not defaulted; a literal equal to the zero value
// is skipped for unnamed builtins only. --build-tag changes the files' build constraint; the load leaves
// out the files code-generator's tools and kgen wrote regardless of the tag.
package defaultergen
