//go:build !amd64 && !arm64

package workqueue

import "unsafe"

// prefetch does nothing on CPUs without a prefetch instruction in this package.
func prefetch(addr unsafe.Pointer) {}
