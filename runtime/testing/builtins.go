package testing

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// defaultPodGracePeriod is the terminationGracePeriodSeconds the server defaults pods to.
const defaultPodGracePeriod = 30

// gracePeriod returns how many seconds a delete lets the object wait before it is removed: zero
// but for Pods running on a node, which their kubelet stops first, as the server decides.
func gracePeriod(obj runtime.Object, opts metav1.DeleteOptions) int64 {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded {
		return 0
	}
	period := int64(defaultPodGracePeriod)
	switch {
	case opts.GracePeriodSeconds != nil:
		period = *opts.GracePeriodSeconds
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		period = *pod.Spec.TerminationGracePeriodSeconds
	}
	if period < 0 {
		period = 1
	}
	return period
}

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
