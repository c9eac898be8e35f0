// Package load loads the input packages of a generator run once, for every generator: the hand-written
// files of each package parsed with comments and type-checked, with dependencies read from the compiler's
// export data.
package load
