package cli

import (
	"io"

	"github.com/kgen-dev/kgen/internal/generators/crdcli"
)

// CRDGen runs crd-gen with command-line arguments args (without the program name): CRD manifests for
// the kinds of the packages matching the patterns, written to --output-dir.
func CRDGen(args []string, stdout, stderr io.Writer) error { return crdcli.Run(args, stdout, stderr) }
