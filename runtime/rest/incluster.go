package rest

import (
	"errors"
	"fmt"
	"net"
	"os"
)

// In-cluster service account file locations.
const (
	serviceAccountTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token"
	serviceAccountCAFile    = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"
)

// ErrNotInCluster is returned by InClusterConfig outside a Kubernetes pod.
var ErrNotInCluster = errors.New("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined")

// InClusterConfig returns a Config for a process running in a pod: the API server from
// KUBERNETES_SERVICE_HOST/PORT, the pod's service-account token (re-read as it rotates) and its CA.
func InClusterConfig() (*Config, error) {
	return inClusterConfig(serviceAccountTokenFile, serviceAccountCAFile)
}

func inClusterConfig(tokenFile, caFile string) (*Config, error) {
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, ErrNotInCluster
	}
	if _, err := os.Stat(tokenFile); err != nil {
		return nil, fmt.Errorf("in-cluster service account token: %w", err)
	}
	tlsConfig := TLSClientConfig{}
	if _, err := os.Stat(caFile); err == nil {
		tlsConfig.CAFile = caFile
	} else {
		return nil, fmt.Errorf("in-cluster CA certificate: %w", err)
	}
	return &Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		TLSClientConfig: tlsConfig,
		BearerTokenFile: tokenFile,
	}, nil
}
