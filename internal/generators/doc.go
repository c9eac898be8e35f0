// Package generators is the home of kgen's code generators; the code lives in its subpackages:
//
//   - model parses the input API packages once into the shared model (groups, versions, types, verbs,
//     extension methods, names), validating the +genclient tag vocabulary with file:line errors;
//   - clientgen, listergen and informergen render code-generator-compatible output from the model;
//   - gofile renders one Go file (templates, import aliases via gengo's import tracker, the one table of
//     runtime symbols, in-process gofmt), and output holds a run's files in memory and writes them
//     atomically or verifies them with a unified diff, removing stale generated files;
//   - run and cli implement the three commands' flags and runs; e2e tests the generated testdata code.
//
// Input packages are listed with golang.org/x/tools/go/packages without dependencies or type checking, and
// their files are parsed once with go/parser: tags, type names and the presence of a Status member are all
// the generators need, and skipping the type-checking of every transitive dependency (what gengo's parser
// does) is most of the speed-up over k8s.io/code-generator. Tag extraction, plural namers and import
// aliasing come from k8s.io/gengo/v2, so names match code-generator's.
package generators
