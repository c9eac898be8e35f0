// Package deepcopygen generates DeepCopyInto, DeepCopy and DeepCopy<Interface> methods for API types,
// with code-generator's deepcopy-gen tags, rules and output.
package deepcopygen
