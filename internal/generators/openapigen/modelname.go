package openapigen

import (
	"fmt"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/gofile"
	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

// modelPackage returns the +k8s:openapi-model-package value of comment lines ("" without one); an
// empty value is an error.
func modelPackage(lines []string) (string, error) {
	vals, ok := wireshape.Tags(lines)[tagModelPackage]
	if !ok {
		return "", nil
	}
	v := strings.TrimSpace(vals[0])
	if v == "" {
		return "", fmt.Errorf("+%s needs a value", tagModelPackage)
	}
	return v, nil
}

// modelNameFile renders the OpenAPIModelName methods of package p: one per exported struct type with a
// model package (its own tag's, else its package's), in name order; nil when there is none.
func modelNameFile(p *wireshape.Package, header []byte) ([]byte, error) {
	pkgPrefix, err := modelPackage(p.DocComments)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.DocPos, err)
	}
	f := gofile.New(p.Path, p.Name)
	var b strings.Builder
	for _, t := range p.Types {
		if !t.Struct || !t.Obj.Exported() {
			continue
		}
		prefix, err := modelPackage(t.Comments)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Pos, err)
		}
		if prefix == "" {
			prefix = pkgPrefix
		}
		if prefix == "" {
			continue
		}
		fmt.Fprintf(&b, "// OpenAPIModelName returns the OpenAPI model name for this type.\nfunc (in %s) OpenAPIModelName() string {\n\treturn %q\n}\n\n", t.Name, prefix+"."+t.Name)
	}
	if b.Len() == 0 {
		return nil, nil
	}
	if err := f.Execute(rawTemplate, b.String()); err != nil {
		return nil, err
	}
	return f.Bytes(append([]byte(BuildTag), header...), Generator)
}
