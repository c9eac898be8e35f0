//go:build linux

package load

import (
	"io/fs"
	"syscall"
)

// haveChangeTimes reports whether the platform tells files' change times, which the listing memo needs.
const haveChangeTimes = true

// changeTime fills in s's change time and inode from info.
func changeTime(info fs.FileInfo, s *fileStatus) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		sec, nsec := st.Ctim.Unix()
		s.Change = sec*1e9 + nsec
		s.Inode = int64(st.Ino)
	}
}
