// Package e2e tests package kubeconfig against a real kube-apiserver started by testenv: the kubeconfig
// file testenv writes, loaded through a command's flags, reaches the server. It has no code of its own;
// it is separate so that the unit tests of package kubeconfig run without the server's binaries.
package e2e
