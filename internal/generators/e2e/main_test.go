package e2e_test

import (
	"os"
	"testing"

	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }
