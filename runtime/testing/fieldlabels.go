package testing

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
)

// metadataFieldLabels are the field labels every built-in type without its own table supports.
var metadataFieldLabels = map[string]string{"metadata.name": "metadata.name", "metadata.namespace": "metadata.namespace"}

// builtinFieldLabels are the field selectors the API server accepts for built-in kinds beyond
// the default metadata ones, each mapped to the object path it reads.
var builtinFieldLabels = map[string]map[string]string{
	"k8s.io/api/core/v1.Pod": withMetadata(map[string]string{
		"spec.nodeName": "spec.nodeName", "spec.host": "spec.nodeName", "spec.restartPolicy": "spec.restartPolicy",
		"spec.schedulerName": "spec.schedulerName", "spec.serviceAccountName": "spec.serviceAccountName",
		"spec.hostNetwork": "spec.hostNetwork", "status.phase": "status.phase", "status.podIP": "status.podIP",
		"status.podIPs": "status.podIPs", "status.nominatedNodeName": "status.nominatedNodeName",
	}),
	"k8s.io/api/core/v1.Node":                  {"metadata.name": "metadata.name", "spec.unschedulable": "spec.unschedulable"},
	"k8s.io/api/core/v1.Namespace":             {"metadata.name": "metadata.name", "status.phase": "status.phase"},
	"k8s.io/api/core/v1.ReplicationController": withMetadata(map[string]string{"status.replicas": "status.replicas"}),
	"k8s.io/api/core/v1.Secret":                withMetadata(map[string]string{"type": "type"}),
	"k8s.io/api/core/v1.Service":               withMetadata(map[string]string{"spec.clusterIP": "spec.clusterIP", "spec.type": "spec.type"}),
	"k8s.io/api/core/v1.Event": withMetadata(map[string]string{
		"involvedObject.kind": "involvedObject.kind", "involvedObject.namespace": "involvedObject.namespace",
		"involvedObject.name": "involvedObject.name", "involvedObject.uid": "involvedObject.uid",
		"involvedObject.apiVersion": "involvedObject.apiVersion", "involvedObject.resourceVersion": "involvedObject.resourceVersion",
		"involvedObject.fieldPath": "involvedObject.fieldPath", "reason": "reason", "reportingComponent": "reportingComponent",
		"source": "source.component", "type": "type",
	}),
	"k8s.io/api/events/v1.Event": withMetadata(map[string]string{
		"regarding.kind": "regarding.kind", "regarding.namespace": "regarding.namespace", "regarding.name": "regarding.name",
		"regarding.uid": "regarding.uid", "regarding.apiVersion": "regarding.apiVersion",
		"regarding.resourceVersion": "regarding.resourceVersion", "regarding.fieldPath": "regarding.fieldPath",
		"reason": "reason", "reportingController": "reportingController", "type": "type",
	}),
	"k8s.io/api/batch/v1.Job":                              withMetadata(map[string]string{"status.successful": "status.succeeded"}),
	"k8s.io/api/certificates/v1.CertificateSigningRequest": {"metadata.name": "metadata.name", "spec.signerName": "spec.signerName"},
}

func withMetadata(labels map[string]string) map[string]string {
	for k, v := range metadataFieldLabels {
		labels[k] = v
	}
	return labels
}

// fieldLabels returns the field selector labels the object's kind supports, mapped to object
// paths, or nil when any field path is accepted (custom resources, whose selectable fields the
// tracker cannot know).
func fieldLabels(obj runtime.Object) map[string]string {
	if !isBuiltin(obj) {
		return nil
	}
	if labels, ok := builtinFieldLabels[goTypeName(obj)]; ok {
		return labels
	}
	return metadataFieldLabels
}

// checkFieldLabels rejects field selectors the server would not accept for the object's kind.
func (s selection) checkFieldLabels(prototype runtime.Object) error {
	if prototype == nil {
		return nil
	}
	labels := fieldLabels(prototype)
	if labels == nil {
		return nil
	}
	for _, r := range s.fields.Requirements() {
		if _, ok := labels[r.Field]; !ok {
			return apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", r.Field))
		}
	}
	return nil
}
