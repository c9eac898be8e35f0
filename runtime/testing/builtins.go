package testing

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// normalizeBuiltin applies the conversions and defaults the server applies to every write of a
// few built-in kinds that tests commonly write: a Secret's stringData is merged into data and
// dropped, and its type defaults to Opaque.
func normalizeBuiltin(obj runtime.Object) {
	if s, ok := obj.(*corev1.Secret); ok {
		if len(s.StringData) > 0 && s.Data == nil {
			s.Data = make(map[string][]byte, len(s.StringData))
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
		s.StringData = nil
		if s.Type == "" {
			s.Type = corev1.SecretTypeOpaque
		}
	}
}
