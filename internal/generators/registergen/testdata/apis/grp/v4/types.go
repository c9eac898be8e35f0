package v4

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Named struct {
	TypeMeta metav1.TypeMeta `json:"typeMeta"`
}
