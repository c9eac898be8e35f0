package fidelity_test

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

var scaleScenarios = []scenario{
	{
		name: "scale subresource of a deployment: read, update with precondition, patch; none for configmaps or a custom resource without replicas",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			labels := map[string]string{"app": "d"}
			in := &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "d"},
				Spec: appsv1.DeploymentSpec{
					Replicas: ptr.To[int32](2),
					Selector: &metav1.LabelSelector{MatchLabels: labels},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: labels},
						Spec:       newPod("", "c").Spec,
					},
				},
			}
			d := &appsv1.Deployment{}
			f.add("create", errFact(b.create(ctx, "deployments", ns, in, metav1.CreateOptions{}, d)))
			s := &autoscalingv1.Scale{}
			f.add("get", errFact(b.getSubresource(ctx, "deployments", "scale", ns, "d", s)))
			f.add("spec", s.Spec.Replicas)
			f.add("status", s.Status.Replicas)
			f.add("selector", s.Status.Selector)
			f.add("sameRV", s.ResourceVersion == d.ResourceVersion)
			f.add("sameUID", s.UID == d.UID)

			stale := s.DeepCopy()
			s.Spec.Replicas = 3
			f.add("update", errFact(b.update(ctx, "deployments", "scale", ns, s, s)))
			f.add("spec", s.Spec.Replicas)
			f.add("get", errFact(b.get(ctx, "deployments", ns, "d", d)))
			f.add("replicas", *d.Spec.Replicas)
			f.add("generation", d.Generation)
			f.add("sameRV", s.ResourceVersion == d.ResourceVersion)

			stale.Spec.Replicas = 9
			f.add("stale", errFact(b.update(ctx, "deployments", "scale", ns, stale, &autoscalingv1.Scale{})))
			stale.Spec.Replicas = -1
			stale.ResourceVersion = ""
			f.add("negative", errFact(b.update(ctx, "deployments", "scale", ns, stale, &autoscalingv1.Scale{})))

			f.add("patch", errFact(b.patch(ctx, "deployments", "scale", ns, "d", types.MergePatchType,
				[]byte(`{"spec":{"replicas":5}}`), metav1.PatchOptions{}, s)))
			f.add("spec", s.Spec.Replicas)
			f.add("get", errFact(b.get(ctx, "deployments", ns, "d", d)))
			f.add("replicas", *d.Spec.Replicas)

			f.add("missing", errFact(b.getSubresource(ctx, "deployments", "scale", ns, "nope", &autoscalingv1.Scale{})))
			f.add("configmap", errFact(b.create(ctx, "configmaps", ns, configMap("c", nil), metav1.CreateOptions{}, &corev1.ConfigMap{})))
			f.add("configmapScale", errFact(b.getSubresource(ctx, "configmaps", "scale", ns, "c", &autoscalingv1.Scale{})))
			if w := mustCreateWidget(ctx, b, ns, newWidget("w", 1), f); w != nil {
				f.add("widgetScale", errFact(b.getSubresource(ctx, "widgets", "scale", ns, "w", &autoscalingv1.Scale{})))
			}
			return f.String()
		},
		want: "create=ok get=ok spec=2 status=0 selector=app=d sameRV=true sameUID=true update=ok spec=3 get=ok replicas=3 generation=2 sameRV=true " +
			"stale=409/Conflict(deployments.apps d) negative=422/Invalid(Scale.autoscaling d) patch=ok spec=5 get=ok replicas=5 " +
			"missing=404/NotFound(deployments.apps nope) configmap=ok configmapScale=404/NotFound widgetScale=404/NotFound(widgets.fidelity.kgen.dev w)",
	},
}

func init() { scenarios = append(scenarios, scaleScenarios...) }
