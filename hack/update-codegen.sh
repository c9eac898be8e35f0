#!/usr/bin/env bash
# Regenerates everything kgen's own generators produce in this repository: the deepcopy functions and
# golden apply configurations/clientset/listers/informers of testdata/, the built-in API's apply
# configurations/clientset/listers/informers in builtin/, the meta/v1 apply configurations in
# runtime/applyconfigurations and the example module's generated code. The
# go:generate lines are the single definition of each run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# kgen's apply configurations of the meta/v1 types, which every generated apply configuration uses.
go generate ./runtime/applyconfigurations/meta/v1
# testdata/ is ignored by ./... patterns, so name the package explicitly.
go generate ./testdata
go generate ./builtin
(cd examples/crd && go generate ./...)
