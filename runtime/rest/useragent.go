package rest

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// DefaultKubernetesUserAgent returns "<command>/<version> (<os>/<arch>) kgen", e.g. "mycontroller/v1.2.3 (linux/amd64) kgen".
func DefaultKubernetesUserAgent() string {
	command := "unknown"
	if len(os.Args) > 0 && os.Args[0] != "" {
		command = strings.ToValidUTF8(filepath.Base(os.Args[0]), "")
	}
	version := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		version = info.Main.Version
	}
	return command + "/" + version + " (" + runtime.GOOS + "/" + runtime.GOARCH + ") kgen"
}
