#!/usr/bin/env bash
# Verifies that generated code is current and sound: the golden testdata output matches a fresh in-memory
# generation (with a diff otherwise) and is deterministic, the generated testdata code builds and vets
# (Go ignores testdata/ for ./... patterns, so it is named explicitly), and the example module's
# go:generate lines, run with --verify, report no differences and its code vets and passes its test;
# likewise builtin/'s go:generate lines and code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

go test -count=1 -run 'TestGolden|TestDeterministic|TestBadTagWritesNothing' ./internal/generators/
go vet ./testdata/defaults/...
go test -count=1 -run 'TestGolden|TestDeterministic|TestBadInput' ./internal/generators/crdgen/
go vet ./testdata/apis/... ./testdata/openapiapis/... ./testdata/generated/... ./testdata/conversionapis/...

# verify_generate runs the generator go:generate lines of the Go files in directory $1 with --verify.
verify_generate() {
	local status=0 line
	while IFS= read -r line; do
		(cd "$1" && eval "${line} --verify") || status=1
	done < <(grep -h -E '^//go:generate go (tool ([a-z]*-gen|kgen generate)|run \.\./cmd/([a-z]*-gen|kgen generate)) ' $(grep -l '^//go:generate' $(find "$1" -name '*.go')) | sed 's|^//go:generate ||')
	return "${status}"
}

status=0
verify_generate builtin || status=1 # its code is vetted and tested with the main module's ./...

verify_generate examples/crd || status=1
cd examples/crd
go vet ./...
go test -count=1 ./...
exit "${status}"
