#!/usr/bin/env bash
# Regenerates everything kgen's own generators produce in this repository: the deepcopy functions and
# golden apply configurations/clientset/listers/informers of testdata/, the built-in API's apply
# configurations/clientset/listers/informers in builtin/, the meta/v1 apply configurations in
# runtime/applyconfigurations, the example module's generated code, and the CRDs (testdata/crds, the
# example's config/crd and crd-gen's golden CRDs). The
# go:generate lines are the single definition of each run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# kgen's apply configurations of the meta/v1 types, which every generated apply configuration uses.
go generate ./runtime/applyconfigurations/meta/v1
# testdata/ is ignored by ./... patterns, so name the package explicitly.
go generate ./testdata
go generate ./builtin
(cd examples/crd && go generate ./...)
# crd-gen's golden CRDs of its test API (testdata/crds and the example's config/crd come from the
# go:generate lines above).
go test -count=1 -run TestGolden ./internal/generators/crdgen -update
