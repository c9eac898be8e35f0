package clientgen

import (
	"slices"
	"sort"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// servedResource is one discovery entry of the fake clientset: a resource or subresource the
// generated clients can call, with the server verbs they use.
type servedResource struct {
	Name       string
	Kind       string
	Namespaced bool
	Verbs      []string
}

// serverVerbs maps client verbs to the verbs discovery reports for them.
var serverVerbs = map[string]string{
	"create": "create", "update": "update", "delete": "delete", "deleteCollection": "deletecollection",
	"get": "get", "list": "list", "watch": "watch", "patch": "patch", "apply": "patch",
}

// GroupVersion is v's discovery name: "group/version", or just the version for the core group.
func (d clientsetData) GroupVersion(v *model.Version) string {
	if v.Group.Name == "" {
		return v.Name
	}
	return v.Group.Name + "/" + v.Name
}

// ServedResources lists v's resources and subresources with the verbs its clients use, in name order.
func (d clientsetData) ServedResources(v *model.Version) []servedResource {
	byName := map[string]*servedResource{}
	add := func(t *model.Type, sub, kind, clientVerb string) {
		verb, ok := serverVerbs[clientVerb]
		if !ok {
			return
		}
		name := t.Resource
		if sub != "" {
			name += "/" + sub
		}
		r := byName[name]
		if r == nil {
			r = &servedResource{Name: name, Kind: kind, Namespaced: t.Namespaced}
			byName[name] = r
		}
		if !slices.Contains(r.Verbs, verb) {
			r.Verbs = append(r.Verbs, verb)
		}
	}
	for _, t := range v.Types {
		for _, verb := range t.Verbs {
			switch verb {
			case "updateStatus":
				add(t, "status", t.Name, "update")
			case "applyStatus":
				add(t, "status", t.Name, "apply")
			default:
				add(t, "", t.Name, verb)
			}
		}
		for _, x := range t.Extensions {
			kind := t.Name
			if x.Subresource != "" {
				kind = x.Result.Name
			}
			add(t, x.Subresource, kind, x.Verb)
		}
	}
	out := make([]servedResource, 0, len(byName))
	for _, r := range byName {
		sort.Strings(r.Verbs)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
