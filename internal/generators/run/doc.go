// Package run holds what the single-purpose generator commands share: common flags, the boilerplate
// header, plural exceptions, and finishing a run by writing or verifying the output with a one-line
// summary.
package run
