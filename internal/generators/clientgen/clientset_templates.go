package clientgen

const clientsetTemplates = `
{{define "clientset"}}{{$d := .}}
// Interface gives access to the discovery client and to each group version's typed client.
type Interface interface {
	Discovery() {{id rt.Discovery.DiscoveryInterfaces}}
{{- range .Versions}}
	{{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}}
{{- end}}
}

// Clientset talks to an API server: a typed client per group version and a discovery client.
type Clientset struct {
	*{{id rt.Discovery.DiscoveryClient}}
{{- range .Versions}}
	{{lower .GroupVersionGoName}} *{{ref ($d.TypedPkg .) (print .GroupVersionGoName "Client")}}
{{- end}}
}
{{range .Versions}}
// {{.GroupVersionGoName}} returns the typed client of version {{.Name}} of the {{if .Group.Name}}{{.Group.Name}}{{else}}core{{end}} group.
func (c *Clientset) {{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}} {
	return c.{{lower .GroupVersionGoName}}
}
{{end}}
// Discovery returns the client of the server's API discovery endpoints.
func (c *Clientset) Discovery() {{id rt.Discovery.DiscoveryInterfaces}} {
	if c == nil {
		return nil
	}
	return c.DiscoveryClient
}

// NewForConfig returns a Clientset for the server c describes, sending requests through an HTTP client made from c.
func NewForConfig(c *{{id rt.Rest.Config}}) (*Clientset, error) {
	configShallowCopy := *c
	if configShallowCopy.UserAgent == "" {
		configShallowCopy.UserAgent = {{id rt.Rest.DefaultKubernetesUserAgent}}()
	}
	httpClient, err := {{id rt.Rest.HTTPClientFor}}(&configShallowCopy)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&configShallowCopy, httpClient)
}

// NewForConfigAndClient returns a Clientset for the server c describes that sends its requests through
// httpClient, throttled by c's rate limiter or else by one made from c's QPS and Burst.
func NewForConfigAndClient(c *{{id rt.Rest.Config}}, httpClient *{{ref "net/http" "Client"}}) (*Clientset, error) {
	configShallowCopy := *c
	if configShallowCopy.RateLimiter == nil && configShallowCopy.QPS > 0 {
		if configShallowCopy.Burst <= 0 {
			return nil, {{ref "fmt" "Errorf"}}("burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0")
		}
		configShallowCopy.RateLimiter = {{id rt.Rest.NewTokenBucketRateLimiter}}(configShallowCopy.QPS, configShallowCopy.Burst)
	}
	var cs Clientset
	var err error
{{- range .Versions}}
	if cs.{{lower .GroupVersionGoName}}, err = {{ref ($d.TypedPkg .) "NewForConfigAndClient"}}(&configShallowCopy, httpClient); err != nil {
		return nil, err
	}
{{- end}}
	if cs.DiscoveryClient, err = {{id rt.Discovery.NewDiscoveryClientForConfigAndClient}}(&configShallowCopy, httpClient); err != nil {
		return nil, err
	}
	return &cs, nil
}

// NewForConfigOrDie is NewForConfig for callers that cannot go on without a clientset: it panics on error.
func NewForConfigOrDie(c *{{id rt.Rest.Config}}) *Clientset {
	cs, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return cs
}

// New returns a Clientset all of whose clients send their requests through c.
func New(c {{id rt.Rest.Interface}}) *Clientset {
	var cs Clientset
{{- range .Versions}}
	cs.{{lower .GroupVersionGoName}} = {{ref ($d.TypedPkg .) "New"}}(c)
{{- end}}
	cs.DiscoveryClient = {{id rt.Discovery.NewDiscoveryClient}}(c)
	return &cs
}
{{end}}

{{define "schemeDoc"}}
// Package scheme registers the clientset's API types, which its clients encode and decode.
{{end}}

{{define "schemeRegister"}}{{template "schemeVars" .}}
// AddToScheme registers the types of every group version of the clientset with a scheme, so that one
// scheme can serve the types of several clientsets.
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	{{id rt.Metav1.AddToGroupVersion}}(Scheme, {{id rt.Schema.GroupVersion}}{Version: "v1"})
	{{id rt.UtilRuntime.Must}}(AddToScheme(Scheme))
}
{{end}}

{{define "schemeVars"}}
// Scheme holds the types of every group version of the clientset.
var Scheme = {{id rt.Runtime.NewScheme}}()

// Codecs provides serializers for the types in Scheme.
var Codecs = {{id rt.Serializer.NewCodecFactory}}(Scheme)

// ParameterCodec converts options structs to and from query parameters.
var ParameterCodec = {{id rt.Runtime.NewParameterCodec}}(Scheme)

var localSchemeBuilder = {{id rt.Runtime.SchemeBuilder}}{
{{- range .Versions}}
	{{ref .PkgPath "AddToScheme"}},
{{- end}}
}
{{end}}
`
