package crdgen

import "strings"

// checkCEL checks an x-kubernetes-validations rule before it is written.
func checkCEL(m *marker, rule schema) error {
	if strings.TrimSpace(rule["rule"].(string)) == "" {
		return m.errorf("the rule is empty")
	}
	if rule["message"] != nil && rule["messageExpression"] != nil {
		return nil
	}
	return nil
}
