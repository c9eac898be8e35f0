//go:build unix && !linux

package testenv

import "syscall"

// setParentDeathSignal does nothing: only Linux offers a parent-death signal, so elsewhere a child
// outlives a test binary that dies before Stop.
func setParentDeathSignal(*syscall.SysProcAttr) {}
