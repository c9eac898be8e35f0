// Package output holds a generator's complete output in memory and then either writes it (changed files
// only, atomically per file, removing files the same generator wrote earlier and no longer produces) or
// verifies it against the disk with a unified diff.
package output
