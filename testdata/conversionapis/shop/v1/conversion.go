package v1

import (
	"strings"

	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kgen-dev/kgen/testdata/conversionapis/shop"
)

// Convert_v1_WidgetSpec_To_shop_WidgetSpec joins Description and Notes into Summary.
func Convert_v1_WidgetSpec_To_shop_WidgetSpec(in *WidgetSpec, out *shop.WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1_WidgetSpec_To_shop_WidgetSpec(in, out, s); err != nil {
		return err
	}
	out.Summary = in.Description + "\n" + in.Notes
	return nil
}

// Convert_shop_WidgetSpec_To_v1_WidgetSpec splits Summary into Description and Notes.
func Convert_shop_WidgetSpec_To_v1_WidgetSpec(in *shop.WidgetSpec, out *WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_shop_WidgetSpec_To_v1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	out.Description, out.Notes, _ = strings.Cut(in.Summary, "\n")
	return nil
}

// Convert_v1_Extra_To_shop_Extra maps Key to Name.
func Convert_v1_Extra_To_shop_Extra(in *Extra, out *shop.Extra, s conversion.Scope) error {
	if err := autoConvert_v1_Extra_To_shop_Extra(in, out, s); err != nil {
		return err
	}
	out.Name = in.Key
	return nil
}

// Convert_shop_Extra_To_v1_Extra maps Name to Key.
func Convert_shop_Extra_To_v1_Extra(in *shop.Extra, out *Extra, s conversion.Scope) error {
	if err := autoConvert_shop_Extra_To_v1_Extra(in, out, s); err != nil {
		return err
	}
	out.Key = in.Name
	return nil
}
