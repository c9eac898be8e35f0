// Package model parses Go API packages once into the shared model every kgen generator renders from:
// groups, versions and types with their verbs, scope, extension methods and names.
package model
