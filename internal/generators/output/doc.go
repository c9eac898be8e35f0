// Package output holds a generator's complete output in memory and then either writes it (changed files
// only, every file staged before the first is replaced, removing files the same generator wrote earlier into
// the directories this run owns and no longer produces; under go generate such files become build-ignored
// tombstones that the next run removes) or verifies it against the disk with a unified diff.
package output
