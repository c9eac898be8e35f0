// Package usercache keeps kgen's records under the user cache directory ($XDG_CACHE_HOME/kgen/<area>),
// never in a user's tree: files are written whole (a reader sees the old content or the new), marked as
// used when read, and removed once nothing has used them for Lifetime, so records of old kgen builds,
// flags and modules do not pile up.
package usercache

import (
	"os"
	"path/filepath"
	"time"
)

// Lifetime is how long a record nobody reads or writes is kept.
const Lifetime = 30 * 24 * time.Hour

// trimStamp names the file whose modification time says when a directory was last trimmed.
const trimStamp = ".trimmed"

// Dir returns the directory of kgen's records of area.
func Dir(area string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "kgen", area), nil
}

// Read returns the content of the record name in dir and marks it used.
func Read(dir, name string) ([]byte, error) {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// Marking costs a write; a day's precision is plenty against Lifetime.
	if info, err := os.Stat(path); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
		now := time.Now()
		os.Chtimes(path, now, now)
	}
	return data, nil
}

// Write stores data as the record name in dir, creating dir, under a temporary name first so a
// concurrent reader never sees half of it, and removes the records of dir unused for Lifetime (at most
// once a day).
func Write(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	trim(dir)
	return nil
}

// trim removes the records of dir (and abandoned temporary files) unused for Lifetime, unless dir was
// trimmed less than a day ago.
func trim(dir string) {
	stamp := filepath.Join(dir, trimStamp)
	if info, err := os.Stat(stamp); err == nil && time.Since(info.ModTime()) < 24*time.Hour {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-Lifetime)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && e.Name() != trimStamp && info.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	if f, err := os.Create(stamp); err == nil {
		f.Close()
	}
}
