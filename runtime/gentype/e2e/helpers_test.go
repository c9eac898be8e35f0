package e2e_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// names returns the names of the items of a typed list.
func names[T any, P interface {
	*T
	metav1.Object
}](items []T) []string {
	out := make([]string, 0, len(items))
	for i := range items {
		out = append(out, P(&items[i]).GetName())
	}
	return out
}

// must turns a (value, error) result into the value, failing the test on an error:
// must(client.Get(...))(t).
func must[T any](value T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return value
	}
}
