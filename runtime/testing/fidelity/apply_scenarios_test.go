package fidelity_test

import (
	"context"
	"encoding/json"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	acappsv1 "github.com/kgen-dev/kgen/builtin/applyconfigurations/apps/v1"
	accorev1 "github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1"
	acmetav1 "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1"
)

func init() { scenarios = append(scenarios, applyConfigurationScenarios...) }

// applyConfigurationScenarios drive server-side apply with generated apply configurations and their
// extractors, as Apply and ApplyStatus of a clientset send them.
var applyConfigurationScenarios = []scenario{
	{
		name: "apply configurations: ownership, conflicts naming the field, force, status and extract round trip",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			apply := func(ac *acappsv1.DeploymentApplyConfiguration, sub, manager string, force bool) (*appsv1.Deployment, string) {
				body, err := json.Marshal(ac)
				if err != nil {
					return nil, err.Error()
				}
				out := &appsv1.Deployment{}
				err = b.patch(ctx, "deployments", sub, ns, "d", types.ApplyPatchType, body,
					metav1.PatchOptions{FieldManager: manager, Force: &force}, out)
				if err != nil && strings.Contains(err.Error(), ".spec.replicas") {
					return out, errFact(err) + "(.spec.replicas)"
				}
				return out, errFact(err)
			}
			labels := map[string]string{"app": "d"}
			_, e := apply(acappsv1.Deployment("d", ns).WithLabels(labels).WithSpec(acappsv1.DeploymentSpec().
				WithReplicas(2).
				WithSelector(acmetav1.LabelSelector().WithMatchLabels(labels)).
				WithTemplate(accorev1.PodTemplateSpec().WithLabels(labels).WithSpec(accorev1.PodSpec().
					WithContainers(accorev1.Container().WithName("c").WithImage("nginx:1"))))), "", "alice", false)
			f.add("create", e)
			bob := acappsv1.Deployment("d", ns).WithSpec(acappsv1.DeploymentSpec().WithReplicas(3))
			_, e = apply(bob, "", "bob", false)
			f.add("conflict", e)
			_, e = apply(bob, "", "bob", true)
			f.add("force", e)
			d, e := apply(acappsv1.Deployment("d", ns).WithStatus(acappsv1.DeploymentStatus().WithObservedGeneration(7)), "status", "carol", false)
			f.add("status", e)
			if d == nil {
				return f.String()
			}
			f.add("observed", d.Status.ObservedGeneration)
			mine, err := acappsv1.ExtractDeployment(d, "alice")
			if err != nil {
				f.add("extract", err)
				return f.String()
			}
			f.add("alice-replicas", mine.Spec.Replicas != nil)
			mine.Spec.Template.Spec.Containers[0].WithImage("nginx:2")
			d, e = apply(mine, "", "alice", false)
			f.add("round-trip", e)
			f.add("image", d.Spec.Template.Spec.Containers[0].Image)
			f.add("replicas", *d.Spec.Replicas)
			f.add("managers", managers(d))
			return f.String()
		},
		want: "create=ok conflict=409/Conflict(.spec.replicas) force=ok status=ok observed=7 alice-replicas=false " +
			"round-trip=ok image=nginx:2 replicas=3 managers=[alice:Apply,bob:Apply,carol:Apply]",
	},
}
