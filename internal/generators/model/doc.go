// Package model turns loaded Go API packages (internal/generators/load) into the shared model the client,
// lister and informer generators render from, and that apply configurations and CRDs read for their
// group, version, kind and resource names: groups, versions and types with their verbs, scope, extension
// methods and names, with a file:line error for every malformed tag.
package model
