package e2e_test

import (
	"os"
	"testing"

	"github.com/kgen-dev/kgen/testenv"
)

// env is the kube-apiserver every end-to-end test in this package talks to.
var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}
