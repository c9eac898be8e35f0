package gentype

import (
	"encoding/json"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// applyPatch checks an apply request and returns the name of the object it targets, the
// configuration encoded as an apply patch body, and the patch options to send with it.
// The real and the fake clients share it so both reject the same bad input.
func applyPatch[C namedObject](configuration C, opts metav1.ApplyOptions) (string, []byte, metav1.PatchOptions, error) {
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
