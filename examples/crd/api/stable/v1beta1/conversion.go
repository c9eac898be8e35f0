package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"

	v1 "example.com/crd/api/stable/v1"
)

// Convert_v1beta1_CronTabSpec_To_v1_CronTabSpec carries spec.schedule over to v1's spec.cronSpec;
// conversion-gen's autoConvert function converts the other fields.
func Convert_v1beta1_CronTabSpec_To_v1_CronTabSpec(in *CronTabSpec, out *v1.CronTabSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_CronTabSpec_To_v1_CronTabSpec(in, out, s); err != nil {
		return err
	}
	out.CronSpec = in.Schedule
	return nil
}

// Convert_v1_CronTabSpec_To_v1beta1_CronTabSpec carries v1's spec.cronSpec back to spec.schedule.
func Convert_v1_CronTabSpec_To_v1beta1_CronTabSpec(in *v1.CronTabSpec, out *CronTabSpec, s conversion.Scope) error {
	if err := autoConvert_v1_CronTabSpec_To_v1beta1_CronTabSpec(in, out, s); err != nil {
		return err
	}
	out.Schedule = in.CronSpec
	return nil
}
