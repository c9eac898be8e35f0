#!/usr/bin/env bash
# Verifies that generated code is current and sound: the golden testdata output matches a fresh in-memory
# generation (with a diff otherwise) and is deterministic, the generated testdata code builds and vets
# (Go ignores testdata/ for ./... patterns, so it is named explicitly), and the example module's
# go:generate lines, run with --verify, report no differences and its code vets and passes its test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

go test -count=1 -run 'TestGolden|TestDeterministic|TestBadTagWritesNothing' ./generators/
go vet ./testdata/apis/... ./testdata/generated/...

cd examples/crd
status=0
while IFS= read -r line; do
	eval "${line} --verify" || status=1
done < <(grep -h '^//go:generate go tool [a-z]*-gen ' $(grep -l '^//go:generate' $(find . -name '*.go')) | sed 's|^//go:generate ||')
go vet ./...
go test -count=1 ./...
exit "${status}"
