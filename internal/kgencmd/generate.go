package kgencmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/clientgen"
	"github.com/kgen-dev/kgen/internal/generators/informergen"
	"github.com/kgen-dev/kgen/internal/generators/listergen"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

const generateUsage = `
Usage:
  kgen generate [flags] <input-dir>

Generates, in one process from one load of the API packages under <input-dir>, what
k8s.io/code-generator's kube_codegen.sh gen_helpers and gen_client produce:

  client       a typed clientset with fakes in <output-dir>/<clientset-name>/<versioned-name>
               for the packages with +genclient types (needs --output-dir and --output-pkg)
  lister       listers in <output-dir>/<listers-name>               (with --with-watch)
  informer     shared informers in <output-dir>/<informers-name>    (with --with-watch)

Every generated file is written at once after all of them were generated; a failure writes nothing.
With --verify nothing is written: a unified diff of what differs is printed, with the count of
differing files, and the exit status is 1 when anything differs.

Examples:
  # what kube_codegen.sh gen_client --with-watch does, as one go:generate line in the module root
  //go:generate go tool kgen generate --boilerplate hack/boilerplate.go.txt --output-dir ./generated --output-pkg example.com/crd/generated --with-watch ./api

  # CI: check that the generated code is current
  go tool kgen generate --verify --boilerplate hack/boilerplate.go.txt --output-dir ./generated --output-pkg example.com/crd/generated --with-watch ./api
`

// generateOptions are kgen generate's flags, named as kube_codegen.sh's options.
type generateOptions struct {
	boilerplate, outputDir, outputPkg, oneInputAPI string
	clientsetName, versionedName                   string
	withWatch                                      bool
	listersName, informersName                     string
	pluralExceptions, lintRules                    []string
	prefersProtobuf, verify                        bool
}

func runGenerate(args []string, stdout, stderr io.Writer) error {
	var o generateOptions
	fs := newFlagSet("generate", stdout, generateUsage)
	fs.StringVar(&o.boilerplate, "boilerplate", "", `the file whose text heads every generated file; "YEAR" is replaced by the current year (default hack/boilerplate.go.txt when it exists)`)
	fs.StringVar(&o.outputDir, "output-dir", "", "the base directory of the clientset, listers and informers")
	fs.StringVar(&o.outputPkg, "output-pkg", "", "the Go import path of --output-dir")
	fs.StringVar(&o.oneInputAPI, "one-input-api", "", "generate clients for <input-dir>/<this> only")
	fs.StringVar(&o.clientsetName, "clientset-name", "clientset", "the directory of the clientset under --output-dir")
	fs.StringVar(&o.versionedName, "versioned-name", "versioned", "the package name of the clientset under --clientset-name")
	fs.BoolVar(&o.withWatch, "with-watch", false, "also generate listers and informers")
	fs.StringVar(&o.listersName, "listers-name", "listers", "the directory of the listers under --output-dir")
	fs.StringVar(&o.informersName, "informers-name", "informers", "the directory of the informers under --output-dir")
	fs.StringSliceVar(&o.pluralExceptions, "plural-exceptions", nil, "Type:PluralizedType pairs, comma separated")
	fs.BoolVar(&o.prefersProtobuf, "prefers-protobuf", false, "make the generated clients prefer protobuf")
	fs.StringSliceVar(&o.lintRules, "lint-rules", nil, "tag checks the input packages must pass: "+strings.Join(model.LintRules, ","))
	fs.BoolVar(&o.verify, "verify", false, "write nothing; print a diff of what differs and fail if anything does")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		return errors.New("the input directory argument is required (see kgen help generate)")
	case 1:
	default:
		return fmt.Errorf("one input directory expected, got %q", fs.Args())
	}
	if (o.outputDir == "") != (o.outputPkg == "") {
		return errors.New("--output-dir and --output-pkg go together")
	}
	return generate(o, fs.Arg(0), stdout, stderr)
}

// timings is the split of a run's wall time that kgen generate reports.
type timings struct{ load, generate, write time.Duration }

func generate(o generateOptions, inputDir string, stdout, stderr io.Writer) error {
	start := time.Now()
	header, err := readBoilerplate(o.boilerplate)
	if err != nil {
		return err
	}
	plurals, err := run.ParsePluralExceptions(o.pluralExceptions)
	if err != nil {
		return err
	}
	if err := model.ValidateLintRules(o.lintRules); err != nil {
		return err
	}
	if info, err := os.Stat(inputDir); err != nil || !info.IsDir() {
		return fmt.Errorf("input directory %s: not a directory", inputDir)
	}
	clientRoot := inputDir
	if o.oneInputAPI != "" {
		clientRoot = filepath.Join(inputDir, filepath.FromSlash(o.oneInputAPI))
	}

	var t timings
	m, err := model.Load([]string{packagePattern(clientRoot)}, model.Options{PluralExceptions: plurals, LintRules: o.lintRules})
	if err != nil {
		return err
	}
	t.load = time.Since(start)

	var sets []*output.Set
	if o.outputDir != "" {
		client := clientgen.Config{
			OutputDir: filepath.Join(o.outputDir, o.clientsetName), OutputPkg: path.Join(o.outputPkg, o.clientsetName),
			ClientsetName: o.versionedName, APIPath: "/apis", FakeClientset: true, PrefersProtobuf: o.prefersProtobuf, Header: header,
		}
		set := output.NewSet(clientgen.Generator, client.Dir())
		if err := clientgen.Generate(m, client, set); err != nil {
			return err
		}
		sets = append(sets, set)
		if o.withWatch {
			listers := listergen.Config{OutputDir: filepath.Join(o.outputDir, o.listersName), OutputPkg: path.Join(o.outputPkg, o.listersName), Header: header}
			set := output.NewSet(listergen.Generator, listers.OutputDir)
			if err := listergen.Generate(m, listers, set); err != nil {
				return err
			}
			sets = append(sets, set)
			informers := informergen.Config{
				OutputDir: filepath.Join(o.outputDir, o.informersName), OutputPkg: path.Join(o.outputPkg, o.informersName),
				VersionedClientsetPackage: client.Pkg(), ListersPackage: listers.OutputPkg, Header: header,
			}
			set = output.NewSet(informergen.Generator, informers.Dir())
			if err := informergen.Generate(m, informers, set); err != nil {
				return err
			}
			sets = append(sets, set)
		}
	}
	t.generate = time.Since(start) - t.load
	files := 0
	for _, s := range sets {
		files += s.Len()
	}

	if o.verify {
		differing := 0
		for _, s := range sets {
			changes, err := s.Changes()
			if err != nil {
				return err
			}
			for _, c := range changes {
				io.WriteString(stdout, output.UnifiedDiff(c.Path, c.Old, c.New))
			}
			differing += len(changes)
		}
		if differing > 0 {
			return fmt.Errorf("%d of the generated files differ from the disk; run kgen generate without --verify to update them", differing)
		}
		fmt.Fprintf(stderr, "verified %d files in %.2fs\n", files, time.Since(start).Seconds())
		return nil
	}
	writeStart := time.Now()
	res, err := output.WriteAll(sets...)
	if err != nil {
		return err
	}
	t.write = time.Since(writeStart)
	for _, p := range res.RemovedPaths {
		fmt.Fprintf(stderr, "removed stale %s\n", p)
	}
	for _, p := range res.EmptiedPaths {
		fmt.Fprintf(stderr, "emptied stale %s (build-ignored while go generate runs; the next run removes it)\n", p)
	}
	fmt.Fprintf(stderr, "generated %d files in %.2fs (%d written, %d unchanged, %d stale removed; load %.2fs, generate %.2fs, write %.2fs)\n",
		files, time.Since(start).Seconds(), res.Written, res.Unchanged, res.Removed, t.load.Seconds(), t.generate.Seconds(), t.write.Seconds())
	return nil
}

// packagePattern is the go package pattern of every package under dir.
func packagePattern(dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Join(dir, "...")
	}
	return "." + string(filepath.Separator) + filepath.Join(dir, "...")
}

// readBoilerplate reads the header file, defaulting to hack/boilerplate.go.txt when that exists.
func readBoilerplate(name string) ([]byte, error) {
	if name == "" {
		if _, err := os.Stat(defaultBoilerplate); err != nil {
			return nil, nil
		}
		name = defaultBoilerplate
	}
	return run.ReadHeader(name)
}

var defaultBoilerplate = filepath.Join("hack", "boilerplate.go.txt")
