// Package common holds types another API package uses as fields, without deepcopy-gen tags: one that
// plain assignment copies and one with hand-written deepcopy methods.
package common

// Plain is copied by assignment: it holds values only.
type Plain struct {
	A int
	B string
}

// WithCopy has hand-written deepcopy methods.
type WithCopy struct {
	Items []string
}

// DeepCopyInto copies the receiver into out.
func (in *WithCopy) DeepCopyInto(out *WithCopy) {
	*out = *in
	if in.Items != nil {
		out.Items = append([]string(nil), in.Items...)
	}
}

// DeepCopy returns a deep copy of the receiver.
func (in *WithCopy) DeepCopy() *WithCopy {
	if in == nil {
		return nil
	}
	out := new(WithCopy)
	in.DeepCopyInto(out)
	return out
}
