//go:build !unix

package testenvbuild

// lock is a no-op where flock is unavailable: concurrent builds of one version then race, and the last
// rename wins with a complete binary either way.
func lock(string) (func(), error) { return func() {}, nil }
