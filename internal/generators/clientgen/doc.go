// Package clientgen renders a typed clientset, its scheme package and its fake twin from the shared model,
// with the same layout and exported API as code-generator's client-gen; standard verbs come from the
// generic runtime/gentype helpers so per-type files stay short.
package clientgen
