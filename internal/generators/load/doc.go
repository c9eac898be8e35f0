// Package load loads the input packages of a generator run once, for every generator: the files of each
// package, except those kgen's generators or the tools they replace wrote (IsGenerated), parsed with
// comments and type-checked, with dependencies read from the compiler's export data where the build cache
// holds it and type-checked from source, without function bodies and in parallel, where it does not (an
// empty cache on a fresh CI runner), so a load never compiles anything. Both paths give the generators
// the same types; Program.Deps reports which ran.
package load
