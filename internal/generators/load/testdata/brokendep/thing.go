// Package brokendep does not compile: its generated file is stale.
package brokendep

// Thing is hand-written.
type Thing struct{ N int }
