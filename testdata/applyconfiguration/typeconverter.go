// Package applyconfiguration holds hand-written apply configurations for the testdata types, standing in
// for applyconfiguration-gen output so that clients generated with --apply-configuration-package can be
// built and exercised.
package applyconfiguration

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
)

// NewTypeConverter returns a type converter for field-managed fake clientsets; it deduces schemas from
// the objects themselves.
func NewTypeConverter(scheme *runtime.Scheme) managedfields.TypeConverter {
	return managedfields.NewDeducedTypeConverter()
}
