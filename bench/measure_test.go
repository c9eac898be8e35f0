package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// measuredEnv carries, to a copy of this test binary, the command it runs for runMeasured.
const measuredEnv = "KGEN_BENCH_MEASURED"

// measuredRun is the command runMeasured's runner starts, and the file it reports the peak RSS to.
type measuredRun struct {
	Args   []string
	Report string
}

// TestMain serves runMeasured: started with measuredEnv set, the test binary runs that one command and
// reports its peak RSS instead of running tests.
func TestMain(m *testing.M) {
	if spec := os.Getenv(measuredEnv); spec != "" {
		os.Exit(runAndReport(spec))
	}
	if spec := os.Getenv(shardReplicaEnv); spec != "" {
		os.Exit(runShardReplica(spec))
	}
	if spec := os.Getenv(webhookServerEnv); spec != "" {
		os.Exit(runWebhookServer(spec))
	}
	os.Exit(m.Run())
}

// runMeasured runs cmd (its path, arguments, directory, environment and standard streams) and returns its
// wall time and the peak RSS of it and the processes it waited for, in KiB. A child's peak RSS read from
// this process would include this process's own: Linux records the resident size of the address space a
// child leaves at exec, and Go starts children in their parent's address space. So cmd is started by a
// fresh copy of the test binary, a few MiB, which reports cmd's figures; the wall time is timed there,
// from starting cmd to reaping it, so the runner's own start (several milliseconds) is not in it.
func runMeasured(cmd *exec.Cmd) (wall time.Duration, peakKB int64, err error) {
	report, err := os.CreateTemp("", "kgen-bench-rss-*")
	if err != nil {
		return 0, 0, err
	}
	report.Close()
	defer os.Remove(report.Name())
	spec, err := json.Marshal(measuredRun{Args: append([]string{cmd.Path}, cmd.Args[1:]...), Report: report.Name()})
	if err != nil {
		return 0, 0, err
	}
	runner := exec.Command(os.Args[0])
	runner.Dir, runner.Stdin, runner.Stdout, runner.Stderr = cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	runner.Env = append(append([]string{}, env...), measuredEnv+"="+string(spec))
	if err := runner.Run(); err != nil {
		return 0, 0, err
	}
	figures, err := os.ReadFile(report.Name())
	if err != nil {
		return 0, 0, err
	}
	var nanos int64
	if _, err := fmt.Sscan(string(figures), &peakKB, &nanos); err != nil {
		return 0, 0, fmt.Errorf("bench runner's report %q: %w", figures, err)
	}
	return time.Duration(nanos), peakKB, nil
}

// runAndReport runs the command spec describes with this process's streams and environment (less
// measuredEnv), writes its peak RSS in KiB and its wall time in nanoseconds to the report file and
// returns its exit code.
func runAndReport(spec string) int {
	var run measuredRun
	if err := json.Unmarshal([]byte(spec), &run); err != nil {
		fmt.Fprintln(os.Stderr, "bench runner:", err)
		return 2
	}
	os.Unsetenv(measuredEnv)
	cmd := exec.Command(run.Args[0], run.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "bench runner:", err)
		return 2
	}
	kb := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if err := os.WriteFile(run.Report, fmt.Appendf(nil, "%d %d", kb, wall.Nanoseconds()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bench runner:", err)
		return 2
	}
	return cmd.ProcessState.ExitCode()
}
