# kgen build and test entry points. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
GO ?= go

.PHONY: build test vet unit bench-test bench

## build: compile every package of the main module.
build:
	$(GO) build ./...

## test: everything CI checks: vet, race-enabled tests, and the bench module in short mode.
test: vet unit bench-test

vet:
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

bench-test:
	cd bench && $(GO) test -short -count=1 ./...

## bench: side-by-side benchmarks against client-go and code-generator.
bench:
	cd bench && $(GO) test -run '^$$' -bench . -benchmem ./...
