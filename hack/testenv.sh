#!/usr/bin/env bash
# hack/testenv.sh builds (once) the etcd and kube-apiserver binaries the testenv package runs and prints the
# directory holding them; progress goes to stderr. It is a thin wrapper of `kgen testenv`, which works the
# same from any module that requires kgen (`go run github.com/kgen-dev/kgen/cmd/kgen help testenv`).
#
#   hack/testenv.sh                        build unless cached, print the asset directory
#   hack/testenv.sh list                   print the cached Kubernetes versions
#   hack/testenv.sh --update-deps VER      re-pin the embedded tool module (internal/testenvbuild/module)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ "${1:-}" == "--update-deps" ]]; then
	shift
	exec go run ./cmd/kgen testenv update-deps "$@"
fi
exec go run ./cmd/kgen testenv "$@"
