package testenv

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// certValidity is long enough for any test run and short enough that nothing outlives its purpose.
const certValidity = 7 * 24 * time.Hour

// keyPair is a certificate and its private key, parsed and PEM-encoded.
type keyPair struct {
	cert    *x509.Certificate
	key     crypto.Signer
	certPEM []byte
	keyPEM  []byte
}

// authority is the environment's own certificate authority; it signs the serving and client certificates.
type authority struct {
	keyPair
}

func newAuthority() (*authority, error) {
	ca, err := issue(&x509.Certificate{
		Subject:               pkix.Name{CommonName: "kgen-testenv-ca"},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, nil)
	if err != nil {
		return nil, err
	}
	return &authority{ca}, nil
}

// servingPair certifies the API server on the loopback address.
func (a *authority) servingPair() (keyPair, error) {
	return issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, &a.keyPair)
}

// clientPair certifies a user: the API server reads the user name from the common name and the groups
// from the organizations.
func (a *authority) clientPair(user string, groups []string) (keyPair, error) {
	return issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, &a.keyPair)
}

// issue fills in a fresh key, serial number and validity and signs template with parent, or self-signs
// it when parent is nil.
func issue(template *x509.Certificate, parent *keyPair) (keyPair, error) {
	key, err := newKey()
	if err != nil {
		return keyPair{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return keyPair{}, fmt.Errorf("testenv: serial number: %w", err)
	}
	now := time.Now()
	template.SerialNumber = serial
	template.NotBefore = now.Add(-time.Hour)
	template.NotAfter = now.Add(certValidity)
	signerCert, signerKey := template, crypto.Signer(key)
	if parent != nil {
		signerCert, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, template, signerCert, key.Public(), signerKey)
	if err != nil {
		return keyPair{}, fmt.Errorf("testenv: signing certificate for %q: %w", template.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return keyPair{}, fmt.Errorf("testenv: parsing certificate for %q: %w", template.Subject.CommonName, err)
	}
	keyPEM, err := privateKeyPEM(key)
	if err != nil {
		return keyPair{}, err
	}
	return keyPair{
		cert:    cert,
		key:     key,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  keyPEM,
	}, nil
}

// newKey makes an ECDSA P-256 key: fast to generate, and accepted everywhere the API server takes keys,
// service-account token signing included.
func newKey() (*ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("testenv: generating key: %w", err)
	}
	return key, nil
}

func privateKeyPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("testenv: encoding private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

func publicKeyPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, fmt.Errorf("testenv: encoding public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// pkiFiles names the files of the environment's certificates and keys.
type pkiFiles struct {
	caCert, servingCert, servingKey, saPublicKey, saPrivateKey string
}

// writePKI creates the CA, the serving and admin certificates and the service-account key pair, writes
// what the API server reads to disk and prepares the admin HTTP client.
func (e *Environment) writePKI() (pkiFiles, error) {
	ca, err := newAuthority()
	if err != nil {
		return pkiFiles{}, err
	}
	serving, err := ca.servingPair()
	if err != nil {
		return pkiFiles{}, err
	}
	admin, err := ca.clientPair("admin", []string{"system:masters"})
	if err != nil {
		return pkiFiles{}, err
	}
	saKey, err := newKey()
	if err != nil {
		return pkiFiles{}, err
	}
	saPublic, err := publicKeyPEM(saKey)
	if err != nil {
		return pkiFiles{}, err
	}
	saPrivate, err := privateKeyPEM(saKey)
	if err != nil {
		return pkiFiles{}, err
	}
	pkiDir := filepath.Join(e.dir, "pki")
	files := pkiFiles{
		caCert:       filepath.Join(pkiDir, "ca.crt"),
		servingCert:  filepath.Join(pkiDir, "apiserver.crt"),
		servingKey:   filepath.Join(pkiDir, "apiserver.key"),
		saPublicKey:  filepath.Join(pkiDir, "sa.pub"),
		saPrivateKey: filepath.Join(pkiDir, "sa.key"),
	}
	if err := os.Mkdir(pkiDir, 0o700); err != nil {
		return pkiFiles{}, fmt.Errorf("testenv: %w", err)
	}
	for path, data := range map[string][]byte{
		files.caCert:       ca.certPEM,
		files.servingCert:  serving.certPEM,
		files.servingKey:   serving.keyPEM,
		files.saPublicKey:  saPublic,
		files.saPrivateKey: saPrivate,
	} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return pkiFiles{}, fmt.Errorf("testenv: %w", err)
		}
	}
	e.ca, e.admin = ca, admin
	e.client = &http.Client{Transport: &http.Transport{
		TLSClientConfig:     e.tlsConfig(admin),
		TLSHandshakeTimeout: 10 * time.Second,
	}}
	return files, nil
}

// tlsConfig trusts the environment CA and presents the client key pair.
func (e *Environment) tlsConfig(client keyPair) *tls.Config {
	roots := x509.NewCertPool()
	roots.AddCert(e.ca.cert)
	return &tls.Config{
		RootCAs:      roots,
		Certificates: []tls.Certificate{{Certificate: [][]byte{client.cert.Raw}, PrivateKey: client.key, Leaf: client.cert}},
		MinVersion:   tls.VersionTLS12,
	}
}
