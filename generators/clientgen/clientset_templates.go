package clientgen

const clientsetTemplates = `
{{define "clientset"}}{{$d := .}}
// Interface gives access to the discovery client and to each group version's typed client.
type Interface interface {
	Discovery() {{rt "discovery.DiscoveryInterface"}}
{{- range .Versions}}
	{{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}}
{{- end}}
}

// Clientset contains the clients for groups.
type Clientset struct {
	*{{rt "discovery.DiscoveryClient"}}
{{- range .Versions}}
	{{lower .GroupVersionGoName}} *{{ref ($d.TypedPkg .) (print .GroupVersionGoName "Client")}}
{{- end}}
}
{{range .Versions}}
// {{.GroupVersionGoName}} retrieves the {{.GroupVersionGoName}}Client.
func (c *Clientset) {{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}} {
	return c.{{lower .GroupVersionGoName}}
}
{{end}}
// Discovery retrieves the DiscoveryClient.
func (c *Clientset) Discovery() {{rt "discovery.DiscoveryInterface"}} {
	if c == nil {
		return nil
	}
	return c.DiscoveryClient
}

// NewForConfig creates a new Clientset for the given config, with an HTTP client built from it.
func NewForConfig(c *{{rt "rest.Config"}}) (*Clientset, error) {
	configShallowCopy := *c
	if configShallowCopy.UserAgent == "" {
		configShallowCopy.UserAgent = {{rt "rest.DefaultKubernetesUserAgent"}}()
	}
	httpClient, err := {{rt "rest.HTTPClientFor"}}(&configShallowCopy)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&configShallowCopy, httpClient)
}

// NewForConfigAndClient creates a new Clientset for the given config and HTTP client; a rate limiter is
// built from QPS and Burst unless the config already carries one.
func NewForConfigAndClient(c *{{rt "rest.Config"}}, httpClient *{{ref "net/http" "Client"}}) (*Clientset, error) {
	configShallowCopy := *c
	if configShallowCopy.RateLimiter == nil && configShallowCopy.QPS > 0 {
		if configShallowCopy.Burst <= 0 {
			return nil, {{ref "fmt" "Errorf"}}("burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0")
		}
		configShallowCopy.RateLimiter = {{rt "rest.NewTokenBucketRateLimiter"}}(configShallowCopy.QPS, configShallowCopy.Burst)
	}
	var cs Clientset
	var err error
{{- range .Versions}}
	if cs.{{lower .GroupVersionGoName}}, err = {{ref ($d.TypedPkg .) "NewForConfigAndClient"}}(&configShallowCopy, httpClient); err != nil {
		return nil, err
	}
{{- end}}
	if cs.DiscoveryClient, err = {{rt "discovery.NewDiscoveryClientForConfigAndClient"}}(&configShallowCopy, httpClient); err != nil {
		return nil, err
	}
	return &cs, nil
}

// NewForConfigOrDie creates a new Clientset for the given config and panics if there is an error in the config.
func NewForConfigOrDie(c *{{rt "rest.Config"}}) *Clientset {
	cs, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return cs
}

// New creates a new Clientset for the given RESTClient.
func New(c {{rt "rest.Interface"}}) *Clientset {
	var cs Clientset
{{- range .Versions}}
	cs.{{lower .GroupVersionGoName}} = {{ref ($d.TypedPkg .) "New"}}(c)
{{- end}}
	cs.DiscoveryClient = {{rt "discovery.NewDiscoveryClient"}}(c)
	return &cs
}
{{end}}

{{define "schemeDoc"}}
// Package scheme contains the scheme of the generated clientset.
{{end}}

{{define "schemeRegister"}}{{template "schemeVars" .}}
// AddToScheme adds all types of this clientset into the given scheme. This allows composition
// of clientsets, like in:
//
//	import (
//	  "github.com/kgen-dev/kgen/runtime/rest"
//	  clientset "example.com/generated/clientset"
//	  aggregatorclientsetscheme "example.com/aggregator/clientset/scheme"
//	)
//
//	kclientset, _ := clientset.NewForConfig(c)
//	_ = aggregatorclientsetscheme.AddToScheme(clientsetscheme.Scheme)
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	{{rt "metav1.AddToGroupVersion"}}(Scheme, {{rt "schema.GroupVersion"}}{Version: "v1"})
	{{rt "utilruntime.Must"}}(AddToScheme(Scheme))
}
{{end}}

{{define "schemeVars"}}
// Scheme holds the types of every group version of the clientset.
var Scheme = {{rt "runtime.NewScheme"}}()

// Codecs provides serializers for the types in Scheme.
var Codecs = {{rt "serializer.NewCodecFactory"}}(Scheme)

// ParameterCodec converts options structs to and from query parameters.
var ParameterCodec = {{rt "runtime.NewParameterCodec"}}(Scheme)

var localSchemeBuilder = {{rt "runtime.SchemeBuilder"}}{
{{- range .Versions}}
	{{ref .PkgPath "AddToScheme"}},
{{- end}}
}
{{end}}
`
