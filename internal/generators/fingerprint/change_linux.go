//go:build linux

package fingerprint

import (
	"io/fs"
	"syscall"
)

// changeStatus fills in s's change time and inode from info, reporting whether the platform has them.
func changeStatus(info fs.FileInfo, s *status) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	sec, nsec := st.Ctim.Unix()
	s.Change = sec*1e9 + nsec
	s.Inode = int64(st.Ino)
	return true
}
