// Package webhook serves the webhooks the API server calls: CRD conversion
// (apiextensions.k8s.io/v1 ConversionReview) and admission (admission.k8s.io/v1
// AdmissionReview), over HTTPS, built on apimachinery alone.
//
// A Server owns the listener, the serving certificate (reloaded from its files
// when they change), a health endpoint, request size limits, metrics and a
// graceful shutdown. Handlers are registered on paths:
//
//	srv, err := webhook.NewServer(webhook.Options{CertDir: "/tmp/k8s-webhook-server/serving-certs"})
//	srv.Register("/convert", webhook.NewConversion(scheme))
//	srv.Register("/validate-crontab", webhook.Validating(validateCronTab))
//	srv.Register("/default-crontab", webhook.Defaulting[v1.CronTab](scheme))
//	err = srv.Start(ctx) // returns once ctx is done and in-flight reviews are answered
//
// # Conversion
//
// NewConversion converts every object of a review to the desired version
// through a runtime.Scheme. Per kind, the first that applies is used:
//   - hub and spokes: one version's type implements Hub, the others implement
//     Convertible (controller-runtime's shape: ConvertTo and ConvertFrom the
//     hub); a conversion between two spokes goes through a new hub object;
//   - the internal version: when the scheme knows the kind at
//     runtime.APIVersionInternal (conversion-gen's layout, versioned types
//     converted to and from an internal hub), the object goes there and back;
//   - the scheme's direct conversion between the two versions
//     (Scheme.AddConversionFunc or generated functions).
//
// A conversion that fails, or panics, answers the whole review with Failed and
// the message; the API server then fails the request that needed it.
//
// # Admission
//
// Validating and Mutating take functions over a generated type: the handler
// decodes the review's object and old object into it, calls the function and
// answers allowed or denied (an error's message, or its code and reason when it
// is a *errors.StatusError). A mutating function changes the object in place;
// the answer carries the JSON patch from the object the API server sent to the
// changed one, leaving alone any field the Go type does not know. Defaulting
// applies the scheme's registered defaulters (Scheme.Default).
//
// # Bad requests
//
// A body that is not JSON, a review of the wrong kind or apiVersion, a request
// with a content type other than JSON or a method other than POST, and a body
// over Options.MaxRequestBytes are answered with a 4xx status and a review
// whose result names the problem; nothing a caller sends makes the server
// panic.
package webhook
