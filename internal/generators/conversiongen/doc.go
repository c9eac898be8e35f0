// Package conversiongen generates conversion functions between an API package's types and their peers
// (the internal or hub version), with code-generator's conversion-gen tags, rules and output:
// autoConvert_<a>_<T>_To_<b>_<T> and Convert_… functions and RegisterConversions, in
// zz_generated.conversion.go. docs/conversion.md lists where the output differs from code-generator's
// and why.
package conversiongen
