//go:build amd64 || arm64

package workqueue

import "unsafe"

// prefetch asks the CPU to start loading the cache line at addr, without
// waiting for it and without faulting if addr is not mapped.
//
//go:noescape
func prefetch(addr unsafe.Pointer)
