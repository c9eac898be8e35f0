// Package webhooks serves the webhooks the API server calls for CronTabs: conversion between v1beta1 and
// v1 (conversion-gen's functions and the hand-written ones in api/stable/v1beta1), defaulting of v1
// (defaulter-gen's RegisterDefaults) and validation of v1, on a runtime/webhook server.
package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kgen-dev/kgen/runtime/webhook"

	stablev1 "example.com/crd/api/stable/v1"
	stablev1beta1 "example.com/crd/api/stable/v1beta1"
)

// ConversionPath is where the conversion webhook is served: the path of the CRD's conversion service
// (kgen generate --crd-conversion-service).
const ConversionPath = "/convert"

// NewScheme returns a scheme with both CronTab versions, their conversions and their defaults.
func NewScheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{stablev1.Install, stablev1beta1.Install} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return scheme, nil
}

// NewServer returns a webhook server (see webhook.NewServer for opts) serving the conversion, defaulting
// and validating webhooks on the paths the CRD and config/webhook/manifests.yaml name.
func NewServer(opts webhook.Options) (*webhook.Server, error) {
	scheme, err := NewScheme()
	if err != nil {
		return nil, err
	}
	srv, err := webhook.NewServer(opts)
	if err != nil {
		return nil, err
	}
	for path, h := range map[string]http.Handler{
		ConversionPath:          webhook.NewConversion(scheme),
		stablev1.DefaultingPath: webhook.Defaulting[stablev1.CronTab](scheme),
		stablev1.ValidationPath: webhook.Validating(Validate),
	} {
		if err := srv.Register(path, h); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// Validate refuses a CronTab whose spec.cronSpec is not a cron schedule: five fields, or one of the
// @-macros. The CRD schema only checks that it is not empty.
func Validate(_ context.Context, req webhook.Request[*stablev1.CronTab]) (webhook.Warnings, error) {
	ct := req.Object
	if ct == nil { // DELETE
		return nil, nil
	}
	if err := validSchedule(ct.Spec.CronSpec); err != "" {
		path := field.NewPath("spec", "cronSpec")
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: stablev1.GroupName, Kind: "CronTab"}, ct.Name,
			field.ErrorList{field.Invalid(path, ct.Spec.CronSpec, err)})
	}
	return nil, nil
}

var macros = []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

// validSchedule says what is wrong with a cron schedule, or "".
func validSchedule(s string) string {
	if strings.HasPrefix(s, "@") {
		if slices.Contains(macros, s) {
			return ""
		}
		return fmt.Sprintf("not a schedule macro: want one of %s", strings.Join(macros, ", "))
	}
	if n := len(strings.Fields(s)); n != 5 {
		return fmt.Sprintf("%d fields, want 5 (minute hour day-of-month month day-of-week) or a macro such as @daily", n)
	}
	return ""
}
