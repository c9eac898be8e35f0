// Package shop is the internal version of the shop API, the peer of its versions' conversions.
package shop
