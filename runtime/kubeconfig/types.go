// Package kubeconfig loads kubeconfig files the way kubectl does and turns them into rest.Configs: the
// KUBECONFIG list with kubectl's merge rules, ~/.kube/config by default, explicit paths, context and
// namespace overrides, exec credential plugins, an in-cluster fallback and pflag flag helpers. It is
// kgen's equivalent of client-go's clientcmd.
//
// Errors name the file, context, cluster or user at fault and what is wrong, and never quote tokens,
// passwords or key material (parser errors are scrubbed of quoted values). Legacy auth-provider stanzas
// are rejected with a pointer to exec plugins.
package kubeconfig

// Config is a merged kubeconfig: named clusters, users and contexts and the current context.
type Config struct {
	// Clusters maps a cluster name to its connection details.
	Clusters map[string]*Cluster
	// AuthInfos maps a user name to its credentials.
	AuthInfos map[string]*AuthInfo
	// Contexts maps a context name to a cluster/user/namespace triple.
	Contexts map[string]*Context
	// CurrentContext is the context used when none is chosen explicitly.
	CurrentContext string
}

// NewConfig returns an empty Config with its maps allocated.
func NewConfig() *Config {
	return &Config{Clusters: map[string]*Cluster{}, AuthInfos: map[string]*AuthInfo{}, Contexts: map[string]*Context{}}
}

// Cluster holds how to reach an API server.
type Cluster struct {
	// LocationOfOrigin is the file the cluster was read from.
	LocationOfOrigin string `json:"-"`
	// Server is the API server URL.
	Server string `json:"server"`
	// TLSServerName overrides the name used to verify the server certificate.
	TLSServerName string `json:"tls-server-name,omitempty"`
	// InsecureSkipTLSVerify turns off server certificate verification.
	InsecureSkipTLSVerify bool `json:"insecure-skip-tls-verify,omitempty"`
	// CertificateAuthority is a CA file path, relative to the kubeconfig file.
	CertificateAuthority string `json:"certificate-authority,omitempty"`
	// CertificateAuthorityData is PEM CA data; it wins over CertificateAuthority.
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	// ProxyURL is the proxy for requests to this cluster (http, https or socks5).
	ProxyURL string `json:"proxy-url,omitempty"`
	// DisableCompression stops asking for gzip-compressed responses.
	DisableCompression bool `json:"disable-compression,omitempty"`
	// MinConnectionPoolSize, if greater than 1, spreads requests to this cluster over at least this
	// many independent transports, each with connections of its own (rest.Config's field of that
	// name); 0 to 100.
	MinConnectionPoolSize int32 `json:"min-connection-pool-size,omitempty"`
}

// AuthInfo holds a user's credentials.
type AuthInfo struct {
	// LocationOfOrigin is the file the user was read from.
	LocationOfOrigin string `json:"-"`
	// ClientCertificate and ClientKey are PEM file paths, relative to the kubeconfig file.
	ClientCertificate string `json:"client-certificate,omitempty"`
	ClientKey         string `json:"client-key,omitempty"`
	// ClientCertificateData and ClientKeyData are PEM data; they win over the files.
	ClientCertificateData []byte `json:"client-certificate-data,omitempty"`
	ClientKeyData         []byte `json:"client-key-data,omitempty"`
	// Token is a bearer token; TokenFile names a file holding one and wins over Token.
	Token     string `json:"token,omitempty"`
	TokenFile string `json:"tokenFile,omitempty"`
	// Impersonate, ImpersonateUID, ImpersonateGroups and ImpersonateUserExtra configure impersonation.
	Impersonate          string              `json:"as,omitempty"`
	ImpersonateUID       string              `json:"as-uid,omitempty"`
	ImpersonateGroups    []string            `json:"as-groups,omitempty"`
	ImpersonateUserExtra map[string][]string `json:"as-user-extra,omitempty"`
	// Username and Password are HTTP basic credentials.
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	// Exec runs a credential plugin.
	Exec *ExecConfig `json:"exec,omitempty"`
	// AuthProvider names a legacy in-tree auth provider; kgen does not support these and says so.
	AuthProvider *AuthProviderConfig `json:"auth-provider,omitempty"`
}

// AuthProviderConfig is a legacy auth-provider stanza, kept only to give a clear error.
type AuthProviderConfig struct {
	Name string `json:"name"`
}

// ExecConfig configures an exec credential plugin.
type ExecConfig struct {
	// Command is the plugin executable; a relative path containing a separator is relative to the kubeconfig file.
	Command string `json:"command"`
	// Args are passed to the command.
	Args []string `json:"args,omitempty"`
	// Env adds environment variables.
	Env []ExecEnvVar `json:"env,omitempty"`
	// APIVersion is client.authentication.k8s.io/v1 or v1beta1.
	APIVersion string `json:"apiVersion,omitempty"`
	// InstallHint is shown when the command is missing.
	InstallHint string `json:"installHint,omitempty"`
	// ProvideClusterInfo passes the cluster to the plugin in KUBERNETES_EXEC_INFO.
	ProvideClusterInfo bool `json:"provideClusterInfo,omitempty"`
	// InteractiveMode is Never, IfAvailable or Always.
	InteractiveMode string `json:"interactiveMode,omitempty"`
}

// ExecEnvVar is one environment variable for an exec plugin.
type ExecEnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Context names a cluster, a user and a default namespace.
type Context struct {
	// LocationOfOrigin is the file the context was read from.
	LocationOfOrigin string `json:"-"`
	// Cluster is the name of the cluster.
	Cluster string `json:"cluster"`
	// AuthInfo is the name of the user.
	AuthInfo string `json:"user"`
	// Namespace is the default namespace; "default" when empty.
	Namespace string `json:"namespace,omitempty"`
}

// fileConfig is the on-disk kubeconfig layout.
type fileConfig struct {
	APIVersion     string          `json:"apiVersion,omitempty"`
	Kind           string          `json:"kind,omitempty"`
	Clusters       []namedCluster  `json:"clusters,omitempty"`
	AuthInfos      []namedAuthInfo `json:"users,omitempty"`
	Contexts       []namedContext  `json:"contexts,omitempty"`
	CurrentContext string          `json:"current-context,omitempty"`
}

type namedCluster struct {
	Name    string   `json:"name"`
	Cluster *Cluster `json:"cluster"`
}

type namedAuthInfo struct {
	Name     string    `json:"name"`
	AuthInfo *AuthInfo `json:"user"`
}

type namedContext struct {
	Name    string   `json:"name"`
	Context *Context `json:"context"`
}
