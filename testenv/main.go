package testenv

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// Main starts one Environment for a package's tests, stores it in *env (when env is not nil), runs the tests, prints the end of
// the process logs when a test failed, and stops the environment. It returns the exit code for os.Exit:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }
func Main(m *testing.M, opts Options, env **Environment) int {
	e, err := Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if env != nil {
		*env = e
	}
	code := m.Run()
	if code != 0 {
		e.writeLogTails(os.Stderr)
	}
	if err := e.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	return code
}
