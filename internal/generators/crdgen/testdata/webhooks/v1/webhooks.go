package v1

// +kubebuilder:webhookconfiguration:mutating=true,name=cronjob-mutating-configuration

// +kubebuilder:webhook:path=/mutate-batch-example-com-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1,reinvocationPolicy=IfNeeded,timeoutSeconds=10

// CronJobDefaulter sets defaults on CronJobs.
type CronJobDefaulter struct {
	// +kubebuilder:webhook:path=/ignored,mutating=true,failurePolicy=fail,sideEffects=None,groups=x,resources=y,verbs=create,versions=v1,name=ignored.kb.io,admissionReviewVersions=v1
	Unused int
}

// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=Ignore,sideEffects=NoneOnDryRun,groups=core,resources=pods,verbs=create;delete,versions=v1,name=vpod.kb.io,admissionReviewVersions={v1,v1beta1},matchPolicy=Equivalent,serviceName=pod-webhooks,serviceNamespace=pods-system,servicePort=9443
// +kubebuilder:webhook:url=https://hooks.example.com/validate,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=cronjobs;cronjobs/status,verbs=*,versions=v1;v1beta1,name=a-url.kb.io,admissionReviewVersions=v1,timeoutSeconds=5

// SetupCronJobWebhooks is where a controller would register the webhooks.
func SetupCronJobWebhooks() {
	// +kubebuilder:webhook:path=/ignored-too,mutating=false,failurePolicy=fail,sideEffects=None,groups=x,resources=y,verbs=create,versions=v1,name=ignored-too.kb.io,admissionReviewVersions=v1
}
