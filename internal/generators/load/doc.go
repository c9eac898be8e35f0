// Package load loads the input packages of a generator run once, for every generator: the files of each
// package, except those kgen's generators or the tools they replace wrote (IsGenerated), parsed with
// comments and type-checked, with dependencies read from the compiler's export data where the build cache
// holds it and type-checked from source, without function bodies and in parallel, where it does not (an
// empty cache on a fresh CI runner), so a load never compiles anything. Both paths give the generators
// the same types; Program.Deps reports which ran. It is the one loader of every generator and command:
// a package a type or tag leads to beyond the load is listed through Program.Listings, never by another
// listing of the generator's own.
//
// A warm load runs no go command but `go env`: two memos under the user cache directory, keyed by the go
// command's settings and the module files, stand in for `go list`. The listing memo (listMemo) replays
// what `go list -deps` reported for file system patterns while the local packages' directories hold the
// same entries and their Go files the same headers (build constraints, package clause, imports), so
// editing a type does not bring go list back; the export data memo (exportMemo) knows where the build
// cache keeps the standard library's and the module cache's export data. Anything either cannot vouch
// for means running go list as before. A load both memos hold runs while `go env` does (speculate.go),
// and is kept only if the settings then confirm both memos' keys.
package load
