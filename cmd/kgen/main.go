// Command kgen is kgen's one command: `kgen testenv` builds and caches the kube-apiserver and etcd that
// testenv runs, from any module that requires kgen. Run `kgen help` for the subcommands.
package main

import (
	"os"

	"github.com/kgen-dev/kgen/internal/kgencmd"
)

func main() { os.Exit(kgencmd.Main(os.Args[1:], os.Stdout, os.Stderr)) }
