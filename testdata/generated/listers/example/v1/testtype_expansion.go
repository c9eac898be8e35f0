package v1

import (
	"k8s.io/apimachinery/pkg/labels"
)

// TestTypeListerExpansion is hand-written: it replaces the generated empty expansion interface.
type TestTypeListerExpansion interface {
	// CountAll returns how many TestTypes the cache holds.
	CountAll() int
}

// TestTypeNamespaceListerExpansion is hand-written: it replaces the generated empty expansion interface.
type TestTypeNamespaceListerExpansion interface{}

// CountAll returns how many TestTypes the cache holds.
func (s *testTypeLister) CountAll() int {
	all, _ := s.List(labels.Everything())
	return len(all)
}
