// Package applypatch checks an apply request and encodes it, for the real typed client of package
// gentype and its fake twin in package gentype/fake, so both reject the same bad input.
package applypatch

import (
	"encoding/json"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Configuration is an apply configuration: comparable (so a nil pointer can be detected) and named.
type Configuration interface {
	comparable
	GetName() *string
}

// Build checks an apply request and returns the name of the object it targets, the configuration
// encoded as an apply patch body, and the patch options to send with it.
func Build[C Configuration](configuration C, opts metav1.ApplyOptions) (string, []byte, metav1.PatchOptions, error) {
	var zero C
	if configuration == zero {
		return "", nil, metav1.PatchOptions{}, errors.New("configuration provided to Apply must not be nil")
	}
	name := configuration.GetName()
	if name == nil || *name == "" {
		return "", nil, metav1.PatchOptions{}, errors.New("configuration.Name must be provided to Apply")
	}
	if opts.FieldManager == "" {
		return "", nil, metav1.PatchOptions{}, errors.New("opts.FieldManager must be provided to Apply")
	}
	data, err := json.Marshal(configuration)
	if err != nil {
		return "", nil, metav1.PatchOptions{}, fmt.Errorf("encoding apply configuration for %q: %w", *name, err)
	}
	return *name, data, opts.ToPatchOptions(), nil
}
