// Package generators is the home of kgen's code generators; the code lives in its subpackages. The
// generators themselves, what each writes and when, are listed in one place: README.md's table under
// "Generating code". Each is a package <name>gen with a thin cmd/<name>-gen over cli, and a step of
// `kgen generate` (internal/kgencmd). Beside them:
//
//   - load loads the input packages once for every generator and every command: dependencies from the
//     compiler's export data (or type-checked from source without function bodies when the build cache
//     lacks it), and only the hand-written files of the input packages parsed and type-checked;
//   - model turns the loaded packages' client tags into the shared model (groups, versions, types, verbs,
//     extension methods, names), with file:line errors; the client, lister and informer generators
//     render from it alone, while deepcopy, register, apply configurations and CRDs also read the
//     loaded types and their own tags;
//   - gofile renders one Go file (templates, typed runtime identifiers, import aliases, in-process gofmt),
//     and output holds a run's files in memory and writes them staged (a failure writes nothing) or
//     verifies them with a unified diff, removing only stale files the run owns;
//   - fingerprint records what a `kgen generate` run read and wrote, so a rerun with nothing changed
//     skips the load; goenv and usercache are what it and load's memos share;
//   - run and cli implement the single-purpose commands' flags and runs; e2e tests the generated
//     testdata code against a real API server, fidelity compares generated APIs with code-generator's on
//     real modules, and propertytest runs random API packages through kgen generate.
//
// Tags are read with k8s.io/gengo/v2/codetags; plural namers and import aliasing come from
// k8s.io/gengo/v2, so names match code-generator's.
package generators
