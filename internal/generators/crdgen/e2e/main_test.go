package e2e_test

import (
	"os"
	"testing"

	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

// crdDirs are the directories of generated CRDs the tests install.
var crdDirs = []string{"../../../../testdata/crds", "../../../../examples/crd/config/crd", "../testdata/golden"}

func TestMain(m *testing.M) {
	crds := make([]any, len(crdDirs))
	for i, d := range crdDirs {
		crds[i] = d
	}
	os.Exit(testenv.Main(m, testenv.Options{CRDs: crds}, &env))
}
