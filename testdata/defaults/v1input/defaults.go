package v1input

import v1 "github.com/kgen-dev/kgen/testdata/defaults/v1"

// SetDefaults_Widget names every widget.
func SetDefaults_Widget(obj *v1.Widget) {
	if obj.Name == "" {
		obj.Name = "widget"
	}
}
