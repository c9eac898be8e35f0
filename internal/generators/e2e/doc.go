// Package e2e exercises the code generated for testdata/ (clientset, listers and informers) against a
// real kube-apiserver started by testenv, with CRDs for the testdata types; its subpackage fake runs the
// generated fake clientset without a server. They test generated code, not the generators, and are the
// only packages under generators/ that import runtime/.
package e2e
