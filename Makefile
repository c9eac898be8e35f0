# kgen build and test entry points. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
GO ?= go

.PHONY: build help generate example test testenv vet staticcheck unit unit-go-next clientgo-test verify-codegen bench-test bench fuzz

## build: compile every package of the main module.
build:
	$(GO) build ./...

## help: list these targets with what each does (from their "## target:" comments).
help:
	@awk '/^## [a-z-]+:/ { sub(/^## /, ""); name = $$0; sub(/:.*/, "", name); sub(/^[^:]*: */, ""); \
		printf "%-15s %s\n", name, $$0; more = 1; next } \
		/^## / && more { sub(/^## /, ""); printf "%-15s %s\n", "", $$0; next } { more = 0 }' $(firstword $(MAKEFILE_LIST))

## generate: regenerate testdata's golden output and the example module's code.
generate:
	hack/update-codegen.sh

## example: the main job: generate the example CRD project's code from a clean state (examples/crd), then run
## its controller against a real kube-apiserver and etcd and print what it does.
example: testenv
	cd examples/crd && rm -rf generated config/crd config/webhook api/*/*/zz_generated.*.go && $(GO) generate ./... && $(GO) run ./cmd/demo

## test: everything CI checks: vet, staticcheck, race-enabled tests (e2e against a real kube-apiserver
## included), the unit tests again under the next Go toolchain, generated-code verification, and one
## iteration of every side-by-side benchmark.
test: vet staticcheck unit unit-go-next clientgo-test verify-codegen bench-test

## testenv: build (once, cached under $HOME/.cache/kgen/testenv) the kube-apiserver and etcd e2e tests use.
testenv:
	hack/testenv.sh >/dev/null

## vet: go vet over the main, bench and clientgo modules, and over the work queue (the one package with assembly)
## for arm64 and for an architecture that takes its portable fallback; fails if `go mod tidy` would change the
## go.mod or go.sum of the main, bench, example or clientgo module.
vet:
	$(GO) mod tidy -diff
	cd bench && $(GO) mod tidy -diff
	cd examples/crd && $(GO) mod tidy -diff
	cd clientgo && $(GO) mod tidy -diff
	$(GO) vet ./...
	cd bench && $(GO) vet ./...
	cd clientgo && $(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./runtime/workqueue/
	GOARCH=riscv64 $(GO) vet ./runtime/workqueue/

## staticcheck: honnef.co/go/tools at the version pinned in hack/tools/staticcheck, over the main module.
staticcheck:
	$(GO) tool -modfile=hack/tools/staticcheck/go.mod staticcheck ./...

## unit: every test of the main module with -race, up to 30 minutes a package (the sharding e2e runs
## long on a loaded machine). Unit tests need nothing else; the e2e tests (the */e2e packages,
## runtime/testing/fidelity and testenv's own) run against the kube-apiserver and etcd the testenv
## target builds.
unit: testenv
	$(GO) test -race -count=1 -timeout 30m ./...

# GO_NEXT is the second Go toolchain CI tests with (the first is go.mod's or the installed one): Go 1.27,
# whose encoding/json runs on its v2 implementation. The go command downloads it from the module proxy.
GO_NEXT ?= go1.27.3
UNIT_PACKAGES_FILTER := /e2e(/|$$)|/runtime/testing/fidelity$$|/testenv$$

## unit-go-next: the main module's unit tests (not the e2e packages) under the GO_NEXT toolchain, without
## -race (the unit target runs them with it).
unit-go-next:
	@set -euo pipefail; export GOTOOLCHAIN=$(GO_NEXT); $(GO) version; \
		packages=$$($(GO) list ./... | grep -vE '$(UNIT_PACKAGES_FILTER)'); \
		$(GO) test -count=1 -timeout 30m $$packages

## clientgo-test: the client-go bridge module's tests (its e2e against the testenv kube-apiserver).
clientgo-test: testenv
	cd clientgo && $(GO) test -race -count=1 ./...

## verify-codegen: fail if testdata's golden output or the example module's generated code differs from what
## kgen generates now (hack/verify-codegen.sh).
verify-codegen:
	hack/verify-codegen.sh

## bench-test: run every benchmark of the bench module once, so a broken or hanging one fails CI.
bench-test:
	cd bench && $(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./...

## bench: side-by-side benchmarks against client-go and code-generator.
bench:
	cd bench && $(GO) test -run '^$$' -bench . -benchmem ./...

## fuzz: run each fuzz target of the runtime, and the generators' random API packages
## (internal/generators/propertytest, whose corpus of seeds is in its testdata), for FUZZTIME (default 30s);
## then NOOPSTEPS (default 60) random edits of the no-op record's differential test (make test runs 16).
# Go minimises each new interesting input for up to a minute by default,
# during which nothing new is tried; FUZZMINIMIZETIME keeps that short. Each propertytest input
# generates and builds a module (seconds each), and it runs one worker: with two, a worker exited
# with status 2 mid-run although the input it held passes alone.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 1s
NOOPSTEPS ?= 60
fuzz:
	@set -e; for pkg in $$($(GO) list ./runtime/... ./internal/generators/propertytest); do \
		workers=""; case $$pkg in */propertytest) workers="-parallel 1";; esac; \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$workers $$pkg; \
		done; \
	done
	$(GO) test -count=1 -run '^TestNoopRecordAgainstFreshRuns$$' ./internal/kgencmd -noop.steps $(NOOPSTEPS)
