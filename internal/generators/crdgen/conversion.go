package crdgen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// DefaultConversionPath is the path of a conversion webhook whose service reference names none, the
// one controller-runtime's webhook server serves conversions at.
const DefaultConversionPath = "/convert"

// ConversionService is the Kubernetes service a CRD's conversion webhook is reached through.
type ConversionService struct {
	Namespace, Name, Path string
	// Port is the service port; 0 leaves it to the API server's default, 443.
	Port int32
}

// ParseConversionService reads a service reference written namespace/name[:port][/path]; the path
// defaults to DefaultConversionPath.
func ParseConversionService(s string) (ConversionService, error) {
	bad := func(why string) (ConversionService, error) {
		return ConversionService{}, fmt.Errorf("conversion service %q: %s (want namespace/name[:port][/path])", s, why)
	}
	namespace, rest, ok := strings.Cut(s, "/")
	if !ok || namespace == "" {
		return bad("no namespace")
	}
	svc := ConversionService{Namespace: namespace, Path: DefaultConversionPath}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		svc.Path, rest = rest[i:], rest[:i]
	}
	if name, port, ok := strings.Cut(rest, ":"); ok {
		p, err := strconv.ParseUint(port, 10, 16)
		if err != nil || p == 0 {
			return bad("the port must be a number from 1 to 65535")
		}
		svc.Port, rest = int32(p), name
	}
	if rest == "" {
		return bad("no service name")
	}
	svc.Name = rest
	return svc, nil
}

// crdConversion is a CRD's spec.conversion.
type crdConversion struct {
	Strategy string             `json:"strategy"`
	Webhook  *conversionWebhook `json:"webhook,omitempty"`
}

type conversionWebhook struct {
	ClientConfig             webhookClientConfig `json:"clientConfig"`
	ConversionReviewVersions []string            `json:"conversionReviewVersions"`
}

type webhookClientConfig struct {
	Service *serviceReference `json:"service,omitempty"`
	URL     string            `json:"url,omitempty"`
}

type serviceReference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Path      string `json:"path,omitempty"`
	Port      int32  `json:"port,omitempty"`
}

// webhookConversion is the spec.conversion sending every conversion of a CRD's versions to svc.
func webhookConversion(svc ConversionService) *crdConversion {
	return &crdConversion{Strategy: "Webhook", Webhook: &conversionWebhook{
		ClientConfig:             webhookClientConfig{Service: &serviceReference{Name: svc.Name, Namespace: svc.Namespace, Path: svc.Path, Port: svc.Port}},
		ConversionReviewVersions: []string{"v1"},
	}}
}

// lostFields describes what the API server's conversion without a webhook (strategy None: it rewrites
// apiVersion and prunes what the schema of the version read lacks) loses between versions whose
// schemas differ: for each ordered pair of versions, the fields an object written in the first has that
// the second has not, or has with another type. Empty when every version has the same fields.
func lostFields(versions []crdVersion) []string {
	fields := make([]map[string]string, len(versions))
	for i, v := range versions {
		fields[i] = map[string]string{}
		collectFields(v.Schema["openAPIV3Schema"].(schema), "", fields[i])
	}
	var out []string
	for i, from := range versions {
		for j, to := range versions {
			if i == j {
				continue
			}
			var lost []string
			for _, path := range sortedStrings(fields[i]) {
				typ := fields[i][path]
				other, ok := fields[j][path]
				switch {
				case typ == "preserved" || preservedAbove(path, fields[j]):
				case !ok:
					lost = append(lost, path)
				case other != typ && other != "preserved":
					lost = append(lost, fmt.Sprintf("%s (%s, but %s in %s)", path, typ, other, to.Name))
				}
			}
			if len(lost) == 0 {
				continue
			}
			const most = 8
			more := ""
			if len(lost) > most {
				more = fmt.Sprintf(" and %d more", len(lost)-most)
				lost = lost[:most]
			}
			out = append(out, fmt.Sprintf("an object written as %s loses %s%s when read as %s", from.Name, strings.Join(lost, ", "), more, to.Name))
		}
	}
	return out
}

// collectFields records the path of every field below s with its JSON type; below a node that keeps
// unknown fields, nothing is recorded (the server keeps whatever is there) and the node says
// "preserved".
func collectFields(s schema, path string, out map[string]string) {
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		out[path] = "preserved"
		return
	}
	if path != "" {
		typ, _ := s["type"].(string)
		if s["x-kubernetes-int-or-string"] == true {
			typ = "int-or-string"
		}
		out[path] = typ
	}
	if props, ok := s["properties"].(schema); ok {
		for name, p := range props {
			if path == "" && (name == "apiVersion" || name == "kind" || name == "metadata") {
				continue
			}
			child := name
			if path != "" {
				child = path + "." + name
			}
			collectFields(p.(schema), child, out)
		}
	}
	if items, ok := s["items"].(schema); ok {
		collectFields(items, path+"[]", out)
	}
	if values, ok := s["additionalProperties"].(schema); ok {
		collectFields(values, path+"{}", out)
	}
}

// preservedAbove reports whether a node above path keeps unknown fields in fields.
func preservedAbove(path string, fields map[string]string) bool {
	for p := path; p != ""; {
		i := strings.LastIndexAny(p, ".[{")
		if i <= 0 {
			return false
		}
		p = p[:i]
		if fields[p] == "preserved" {
			return true
		}
	}
	return false
}

func sortedStrings(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
