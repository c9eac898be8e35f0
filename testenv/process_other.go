//go:build !unix

package testenv

import (
	"os"
	"os/exec"
	"sync"
)

// exits maps each started child to the channel its waiting goroutine reports the exit status on.
var exits sync.Map

// configureChild has nothing to set up: without process groups the child alone is started and stopped.
func configureChild(*exec.Cmd) {}

// signalGroup kills the child; there is no gentler signal to send here.
func signalGroup(cmd *exec.Cmd, _ bool) error { return cmd.Process.Kill() }

// reap reports the child's exit status if it has exited, waiting for that when block is set.
func reap(cmd *exec.Cmd, block bool) (status string, exited bool) {
	ch := make(chan string, 1)
	if existing, loaded := exits.LoadOrStore(cmd, ch); loaded {
		ch = existing.(chan string)
	} else {
		go func() {
			if err := cmd.Wait(); err != nil {
				ch <- err.Error()
				return
			}
			ch <- "exit status 0"
		}()
	}
	if block {
		status = <-ch
	} else {
		select {
		case status = <-ch:
		default:
			return "", false
		}
	}
	exits.Delete(cmd)
	return status, true
}

// processAlive reports whether a process with the id exists.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
