// Package fake exercises the code generated for testdata/ without a server: the generated fake
// clientset (typed verbs, extension verbs, apply), the informers it feeds and its fake discovery. Its
// parent package e2e runs the same generated clients against a real kube-apiserver.
package fake
