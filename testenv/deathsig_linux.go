package testenv

import "syscall"

// setParentDeathSignal has Linux kill the child with SIGKILL when the test binary exits for any reason,
// a panic or a timeout included.
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
