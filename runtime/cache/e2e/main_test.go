// Package e2e tests the cache package against a real kube-apiserver and etcd started by testenv.
package e2e

import (
	"os"
	"testing"

	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }
