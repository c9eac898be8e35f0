#!/usr/bin/env bash
# Regenerates everything kgen's own generators produce in this repository: the deepcopy functions and
# golden clientset/listers/informers of testdata/, the built-in API's clientset/listers/informers in
# builtin/ and the example module's generated code. The
# go:generate lines are the single definition of each run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# testdata/ is ignored by ./... patterns, so name the package explicitly.
go generate ./testdata
go generate ./builtin
(cd examples/crd && go generate ./...)
