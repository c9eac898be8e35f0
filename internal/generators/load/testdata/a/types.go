// Package a is an input package with hand-written and generated files.
package a

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/internal/generators/load/testdata/brokendep"
)

// Widget is hand-written.
type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Dep brokendep.Thing
}

// Handy is a hand-written method.
func (w *Widget) Handy() {}
