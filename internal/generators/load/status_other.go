//go:build !linux

package load

import "io/fs"

// haveChangeTimes reports whether the platform tells files' change times, which the listing memo needs.
const haveChangeTimes = false

func changeTime(fs.FileInfo, *fileStatus) {}
