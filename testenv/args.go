package testenv

import (
	"fmt"
	"net"
	"strconv"
)

// freePorts reserves n distinct loopback ports by listening on them together, then releases them for the
// children to bind.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("testenv: finding a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// etcdArgs are the flags of a single-member etcd on loopback whose data may be lost.
func etcdArgs(dataDir string, clientPort, peerPort int) []string {
	client := "http://127.0.0.1:" + strconv.Itoa(clientPort)
	peer := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	return []string{
		"--name=testenv",
		"--data-dir=" + dataDir,
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=testenv=" + peer,
		"--unsafe-no-fsync=true", // a test cluster's data is disposable; fsync only costs time
		"--log-level=warn",
	}
}

// apiserverArgs are the flags of a kube-apiserver on loopback with client-certificate authentication,
// RBAC authorization and service-account tokens, but without controllers.
func apiserverArgs(pki pkiFiles, etcdPort, securePort int) []string {
	return []string{
		"--etcd-servers=http://127.0.0.1:" + strconv.Itoa(etcdPort),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// The endpoint reconciler rejects a loopback address; with one server there is nothing to reconcile.
		"--endpoint-reconciler-type=none",
		"--secure-port=" + strconv.Itoa(securePort),
		"--tls-cert-file=" + pki.servingCert,
		"--tls-private-key-file=" + pki.servingKey,
		"--client-ca-file=" + pki.caCert,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + pki.saPublicKey,
		"--service-account-signing-key-file=" + pki.saPrivateKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		// No controller-manager runs, so nothing creates the default service accounts pods would wait for.
		"--disable-admission-plugins=ServiceAccount",
		"--allow-privileged=true",
		"--profiling=false",
	}
}
