// Package conversionapis holds API packages that conversion-gen is tested on: an internal hub (shop) and a
// version (shop/v1) with every kind of field conversion, hand-written conversions, opt-outs and a
// url.Values conversion.
package conversionapis
