package common

// Limits bounds a widget.
type Limits struct {
	// Max is the largest size.
	Max *int32 `json:"max,omitempty"`
}

// SetDefaults_Limits sets Max to 10.
func SetDefaults_Limits(obj *Limits) {
	if obj.Max == nil {
		limit := int32(10)
		obj.Max = &limit
	}
}
