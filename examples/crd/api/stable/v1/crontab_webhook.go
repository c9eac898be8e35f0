package v1

// The paths the example's webhook server (package example.com/crd/webhooks) serves the CronTab admission
// webhooks on. The markers below make `kgen generate --webhook-dir` write config/webhook/manifests.yaml,
// as controller-gen's webhook generator does.
//
// +kubebuilder:webhook:path=/mutate-stable-example-com-v1-crontab,mutating=true,failurePolicy=fail,sideEffects=None,groups=stable.example.com,resources=crontabs,verbs=create;update,versions=v1,name=mcrontab-v1.stable.example.com,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-stable-example-com-v1-crontab,mutating=false,failurePolicy=fail,sideEffects=None,groups=stable.example.com,resources=crontabs,verbs=create;update,versions=v1,name=vcrontab-v1.stable.example.com,admissionReviewVersions=v1
const (
	// DefaultingPath is where the mutating webhook applying the scheme's defaults is served.
	DefaultingPath = "/mutate-stable-example-com-v1-crontab"
	// ValidationPath is where the validating webhook is served.
	ValidationPath = "/validate-stable-example-com-v1-crontab"
)
