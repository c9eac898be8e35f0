//go:build linux

package fingerprint

import (
	"io/fs"
	"syscall"
)

// changeStatus fills in e's change time and inode from info, reporting whether the platform has them.
func changeStatus(info fs.FileInfo, e *entry) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	sec, nsec := st.Ctim.Unix()
	e.Change = sec*1e9 + nsec
	e.Inode = int64(st.Ino)
	return true
}
