package kubeconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Environment variable and default location of kubeconfig files.
const (
	RecommendedConfigPathEnvVar = "KUBECONFIG"
	RecommendedHomeDir          = ".kube"
	RecommendedFileName         = "config"
)

// RecommendedHomeFile returns ~/.kube/config.
func RecommendedHomeFile() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, RecommendedHomeDir, RecommendedFileName)
}

// Load parses kubeconfig YAML (or JSON). Relative paths are left as written.
func Load(data []byte) (*Config, error) {
	return parse(data, "")
}

// LoadFromFile reads and parses a kubeconfig file; relative paths in it are resolved against its directory.
func LoadFromFile(filename string) (*Config, error) {
	data, err := os.ReadFile(filename)
	if err != nil {
		return nil, fmt.Errorf("reading kubeconfig %s: %w", filename, err)
	}
	return parse(data, filename)
}

func parse(data []byte, filename string) (*Config, error) {
	where := "kubeconfig"
	if filename != "" {
		where = "kubeconfig " + filename
	}
	var fc fileConfig
	// Unknown fields are tolerated, as newer kubectl versions add some.
	if err := yaml.Unmarshal(data, &fc); err != nil {
		return nil, fmt.Errorf("%s is not a valid kubeconfig: %s", where, sanitizeParseError(err))
	}
	if fc.Kind != "" && fc.Kind != "Config" {
		return nil, fmt.Errorf("%s: kind is %q, want Config", where, fc.Kind)
	}
	if fc.APIVersion != "" && fc.APIVersion != "v1" {
		return nil, fmt.Errorf("%s: apiVersion is %q, want v1", where, fc.APIVersion)
	}
	cfg := NewConfig()
	cfg.CurrentContext = fc.CurrentContext
	for i, c := range fc.Clusters {
		if c.Name == "" || c.Cluster == nil {
			return nil, fmt.Errorf("%s: clusters[%d] needs a name and a cluster", where, i)
		}
		c.Cluster.LocationOfOrigin = filename
		cfg.Clusters[c.Name] = c.Cluster
	}
	for i, u := range fc.AuthInfos {
		if u.Name == "" || u.AuthInfo == nil {
			return nil, fmt.Errorf("%s: users[%d] needs a name and a user", where, i)
		}
		u.AuthInfo.LocationOfOrigin = filename
		cfg.AuthInfos[u.Name] = u.AuthInfo
	}
	for i, c := range fc.Contexts {
		if c.Name == "" || c.Context == nil {
			return nil, fmt.Errorf("%s: contexts[%d] needs a name and a context", where, i)
		}
		c.Context.LocationOfOrigin = filename
		cfg.Contexts[c.Name] = c.Context
	}
	if filename != "" {
		resolvePaths(cfg, filepath.Dir(filename))
	}
	return cfg, nil
}

var (
	quotedText = regexp.MustCompile(`"[^"]*"`)
	dumpedMap  = regexp.MustCompile(`map\[.*`)
)

// sanitizeParseError drops quoted values and dumped maps from YAML/JSON parser errors, which can quote
// tokens or passwords verbatim; line numbers and field names are kept.
func sanitizeParseError(err error) string {
	msg := dumpedMap.ReplaceAllString(err.Error(), "<value withheld>")
	return quotedText.ReplaceAllString(msg, `"<withheld>"`)
}

// resolvePaths makes file references relative to the kubeconfig's directory absolute.
func resolvePaths(cfg *Config, dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	for _, c := range cfg.Clusters {
		abs(&c.CertificateAuthority)
	}
	for _, u := range cfg.AuthInfos {
		abs(&u.ClientCertificate)
		abs(&u.ClientKey)
		abs(&u.TokenFile)
		if u.Exec != nil && strings.ContainsRune(u.Exec.Command, filepath.Separator) {
			abs(&u.Exec.Command)
		}
	}
}

// ClientConfigLoadingRules chooses which kubeconfig files to read.
type ClientConfigLoadingRules struct {
	// ExplicitPath is a single file to load (e.g. from --kubeconfig); it must exist.
	ExplicitPath string
	// Precedence lists files to merge, earliest first; missing files are skipped.
	Precedence []string
}

// NewDefaultClientConfigLoadingRules returns rules for the KUBECONFIG list, or ~/.kube/config when it is unset.
func NewDefaultClientConfigLoadingRules() *ClientConfigLoadingRules {
	if env := os.Getenv(RecommendedConfigPathEnvVar); env != "" {
		var files []string
		for _, f := range filepath.SplitList(env) {
			if f != "" {
				files = append(files, f)
			}
		}
		return &ClientConfigLoadingRules{Precedence: dedupe(files)}
	}
	if home := RecommendedHomeFile(); home != "" {
		return &ClientConfigLoadingRules{Precedence: []string{home}}
	}
	return &ClientConfigLoadingRules{}
}

func dedupe(files []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// Files returns the files the rules read, in precedence order.
func (r *ClientConfigLoadingRules) Files() []string {
	if r.ExplicitPath != "" {
		return []string{r.ExplicitPath}
	}
	return r.Precedence
}

// ErrEmptyConfig means no kubeconfig file was found.
var ErrEmptyConfig = errors.New("no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config")

// Load reads and merges the files. As kubectl does, the first file to define a cluster, user or context
// name wins, and the first non-empty current-context wins. A file that exists but cannot be parsed is an
// error naming the file.
func (r *ClientConfigLoadingRules) Load() (*Config, error) {
	merged := NewConfig()
	found := false
	for _, file := range r.Files() {
		cfg, err := LoadFromFile(file)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && r.ExplicitPath == "" {
				continue
			}
			return nil, err
		}
		found = true
		mergeInto(merged, cfg)
	}
	if !found {
		return merged, ErrEmptyConfig
	}
	return merged, nil
}

// mergeInto adds entries of src that dst does not yet have.
func mergeInto(dst, src *Config) {
	for k, v := range src.Clusters {
		if _, ok := dst.Clusters[k]; !ok {
			dst.Clusters[k] = v
		}
	}
	for k, v := range src.AuthInfos {
		if _, ok := dst.AuthInfos[k]; !ok {
			dst.AuthInfos[k] = v
		}
	}
	for k, v := range src.Contexts {
		if _, ok := dst.Contexts[k]; !ok {
			dst.Contexts[k] = v
		}
	}
	if dst.CurrentContext == "" {
		dst.CurrentContext = src.CurrentContext
	}
}

// Write serialises cfg as kubeconfig YAML with entries sorted by name.
func Write(cfg *Config) ([]byte, error) {
	fc := fileConfig{APIVersion: "v1", Kind: "Config", CurrentContext: cfg.CurrentContext}
	for _, name := range sortedKeys(cfg.Clusters) {
		fc.Clusters = append(fc.Clusters, namedCluster{Name: name, Cluster: cfg.Clusters[name]})
	}
	for _, name := range sortedKeys(cfg.AuthInfos) {
		fc.AuthInfos = append(fc.AuthInfos, namedAuthInfo{Name: name, AuthInfo: cfg.AuthInfos[name]})
	}
	for _, name := range sortedKeys(cfg.Contexts) {
		fc.Contexts = append(fc.Contexts, namedContext{Name: name, Context: cfg.Contexts[name]})
	}
	return yaml.Marshal(fc)
}

// WriteToFile writes cfg to filename with owner-only permissions.
func WriteToFile(cfg *Config, filename string) error {
	data, err := Write(cfg)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(filename); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(filename, data, 0o600)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
