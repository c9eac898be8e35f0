// Package yamlemit writes YAML byte for byte as go-yaml v2 marshals the same value, without go-yaml's
// reflection and event machinery: the one YAML writer of the generators, for CRD manifests (crd-gen)
// and the structured-merge-diff schema of apply configurations. What it does not cover it reports, and
// the caller falls back to go-yaml.
package yamlemit
