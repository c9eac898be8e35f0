//go:build unix

package testenv

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
)

// configureChild puts the child in its own process group and, where supported, has the kernel kill it
// when the test binary dies.
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends SIGTERM, or SIGKILL when kill is set, to the child's process group.
func signalGroup(cmd *exec.Cmd, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// reap collects the child's exit status if it has exited, waiting for that when block is set. It waits
// with wait4 rather than cmd.Wait so that no goroutine stays parked for the life of the child.
func reap(cmd *exec.Cmd, block bool) (status string, exited bool) {
	options := syscall.WNOHANG
	if block {
		options = 0
	}
	var ws syscall.WaitStatus
	for {
		pid, err := syscall.Wait4(cmd.Process.Pid, &ws, options, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			_ = cmd.Process.Release()
			return fmt.Sprintf("unknown (%v)", err), true
		case pid == 0:
			return "", false
		}
		_ = cmd.Process.Release()
		return describeWaitStatus(ws), true
	}
}

func describeWaitStatus(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return fmt.Sprintf("exit status %d", ws.ExitStatus())
	case ws.Signaled():
		return fmt.Sprintf("killed by %v", ws.Signal())
	default:
		return fmt.Sprintf("wait status %#x", uint32(ws))
	}
}

// processAlive reports whether a process with the id exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
