package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Widget struct {
	metav1.TypeMeta `json:",inline"`
}
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
}
type Gadget struct {
	metav1.TypeMeta `json:",inline"`
}
type hidden struct {
	metav1.TypeMeta `json:",inline"`
}
