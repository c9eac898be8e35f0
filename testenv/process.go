package testenv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// restartGrace is how long Restart lets the API server shut down gracefully, closing its watches, before
// killing it.
const restartGrace = 5 * time.Second

// logTailLines is how many log lines errors and Main's failure report show per process.
const logTailLines = 40

// process is one child: its command line, its log file, and whether it has exited.
type process struct {
	name    string // binary name, e.g. "kube-apiserver"
	path    string
	args    []string
	logPath string

	cmd    *exec.Cmd
	exited bool
	status string // how it exited, once exited is true
}

// start launches the process with its output appended to its log file. The child gets its own process
// group, so stop reaches everything it spawns, and dies with this process where the OS allows.
func (p *process) start() error {
	logFile, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("testenv: %s log: %w", p.name, err)
	}
	defer logFile.Close() // the child holds its own descriptor
	cmd := exec.Command(p.path, p.args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	configureChild(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("testenv: starting %s: %w\n  command: %s", p.name, err, p.commandLine())
	}
	p.cmd, p.exited, p.status = cmd, false, ""
	return nil
}

// running reports whether the process is still alive, recording its exit status when it is not.
func (p *process) running() bool {
	if p.cmd == nil || p.exited {
		return false
	}
	if status, ok := reap(p.cmd, false); ok {
		p.exited, p.status = true, status
	}
	return !p.exited
}

// stop asks the process group to terminate, kills it after grace (at once when grace is zero), and waits
// for the process to be gone.
func (p *process) stop(grace time.Duration) error {
	if !p.running() {
		return nil
	}
	if grace > 0 {
		if err := signalGroup(p.cmd, false); err != nil {
			return fmt.Errorf("testenv: stopping %s (pid %d): %w", p.name, p.cmd.Process.Pid, err)
		}
		for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if !p.running() {
				return nil
			}
		}
	}
	if err := signalGroup(p.cmd, true); err != nil {
		return fmt.Errorf("testenv: killing %s (pid %d): %w", p.name, p.cmd.Process.Pid, err)
	}
	p.status, _ = reap(p.cmd, true)
	p.exited = true
	return nil
}

func (p *process) commandLine() string {
	return strings.Join(append([]string{p.path}, p.args...), " ")
}

// describe explains a failure of the process for an error message: what went wrong, how it was started
// and the end of its log.
func (p *process) describe(problem string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "testenv: %s %s\n  command: %s\n", p.name, problem, p.commandLine())
	b.WriteString(p.logTail(logTailLines))
	return b.String()
}

// logTail renders the last n lines of the log, indented, under a heading.
func (p *process) logTail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("  log %s: %v\n", p.logPath, err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(data) == 0 {
		lines = nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  last %d lines of %s:\n", len(lines), filepath.Base(p.logPath))
	for _, line := range lines {
		fmt.Fprintf(&b, "    %s\n", line)
	}
	return b.String()
}
