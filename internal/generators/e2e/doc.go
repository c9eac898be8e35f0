// Package e2e exercises the code generated for testdata/ (clientset, fake clientset, listers and
// informers): against the generated fake clientset, and against a real kube-apiserver with CRDs for the
// testdata types. It tests generated code, not the generators, and is the only package under generators/
// that imports runtime/.
package e2e
