// Package kgencmd implements the kgen command: its subcommands, their flags and help.
package kgencmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// subcommand is one `kgen <name>` verb.
type subcommand struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

func subcommands() []subcommand {
	return []subcommand{
		{"generate", "run every generator over API packages from one load, in one process", runGenerate},
		{"testenv", "build (once) and locate the kube-apiserver and etcd binaries testenv runs", runTestenv},
	}
}

// Main runs the kgen command with args (without the program name) and returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			return Main([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	for _, c := range subcommands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		switch {
		case errors.Is(err, pflag.ErrHelp):
			return 0
		case err != nil:
			fmt.Fprintf(stderr, "kgen %s: %v\n", c.name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "kgen: unknown subcommand %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "kgen is a toolchain for Kubernetes API authors.")
	fmt.Fprintln(w, "\nUsage:\n  kgen <subcommand> [flags]\n\nSubcommands:")
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun `kgen help <subcommand>` for a subcommand's flags and examples.")
}

// newFlagSet returns a flag set whose help shows the subcommand's usage lines and examples before the flags.
func newFlagSet(name string, stdout io.Writer, usageLines string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("kgen "+name, pflag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintln(stdout, strings.TrimSpace(usageLines))
		fmt.Fprintln(stdout, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}
