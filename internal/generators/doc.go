// Package generators is the home of kgen's code generators; the code lives in its subpackages:
//
//   - load loads the input packages once for every generator: dependencies from the compiler's export
//     data, and only the hand-written files of the input packages parsed and type-checked;
//   - model turns the packages' tags into the shared model (groups, versions, types, verbs, extension
//     methods, names), with file:line errors, either from its own parse-only listing (Load) or from a
//     load (FromPackages);
//   - deepcopygen and registergen generate into the input packages from the load; applyconfigurationgen,
//     clientgen, listergen and informergen render code-generator-compatible output from the model;
//   - gofile renders one Go file (templates, typed runtime identifiers, import aliases, in-process gofmt),
//     and output holds a run's files in memory and writes them staged (a failure writes nothing) or
//     verifies them with a unified diff, removing only stale files the run owns;
//   - run and cli implement the single-purpose commands' flags and runs (kgen generate, which runs every
//     generator from one load, is internal/kgencmd); e2e tests the generated testdata code against a real
//     API server, and fidelity compares generated APIs with code-generator's on real modules.
//
// Tags are read with k8s.io/gengo/v2/codetags; plural namers and import aliasing come from
// k8s.io/gengo/v2, so names match code-generator's.
package generators
