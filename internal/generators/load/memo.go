package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/goenv"
	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// exportMemo remembers where the build cache keeps the export data of dependencies whose export data
// cannot change while the go command's settings and the module files stay the same: standard library
// packages and packages in the module cache (read-only, pinned by go.sum) whose own dependencies are too.
// A warm load that finds every such dependency in the memo, and each remembered file still in the build
// cache, needs neither `go list` run that asks the go command about the build cache (which hashes the
// sources of every dependency), only the one that lists the packages. Its record lives under the user
// cache directory, keyed by the settings (goenv, with the build cache's location and the C toolchain's
// flags) and the module files' content; build cache entries are named by their content, so a file that
// is still there is still the export data it was.
type exportMemo struct {
	dir, name string // where the record lives
	modCache  string
	paths     map[string]string // import path -> export data file
}

// memoVars are the settings that decide a dependency's export data beyond goenv.Vars.
var memoVars = []string{"GOCACHE", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "GOFIPS140"}

// settings are the go command's settings for a load, read once for both memos.
type settings struct {
	key []byte            // goenv's description of the settings and module files
	env map[string]string // the settings
}

// readSettings runs `go env` in dir for goenv.Vars and memoVars, or returns nil if it fails.
func readSettings(dir string) *settings {
	var key bytes.Buffer
	env, err := goenv.Write(&key, dir, append(append([]string(nil), goenv.Vars...), memoVars...))
	if err != nil {
		return nil
	}
	return &settings{key: key.Bytes(), env: env}
}

// openExportMemo returns the memo of loads run with settings s, empty if there is none yet, or nil if
// the settings could not be read or there is no user cache directory.
func openExportMemo(s *settings) *exportMemo {
	if s == nil || s.env["GOMODCACHE"] == "" {
		return nil
	}
	records, err := usercache.Dir("export")
	if err != nil {
		return nil
	}
	h := sha256.New()
	h.Write([]byte("kgen export data memo v1\x00"))
	h.Write(s.key)
	return exportMemoAt(records, hex.EncodeToString(h.Sum(nil))[:32], filepath.Clean(s.env["GOMODCACHE"])+string(filepath.Separator))
}

// exportMemoAt opens the memo named name in records, for the module cache modCache.
func exportMemoAt(records, name, modCache string) *exportMemo {
	m := &exportMemo{dir: records, name: name, modCache: modCache, paths: map[string]string{}}
	if data, err := usercache.Read(m.dir, m.name); err == nil {
		json.Unmarshal(data, &m.paths)
	}
	return m
}

// fixed reports which of the listed packages have export data that only the memo's key decides: standard
// library and module cache packages whose dependencies are fixed too. `go list -deps` lists dependencies
// before their importers.
func (m *exportMemo) fixed(all []*listed) map[*listed]bool {
	fixed := make(map[*listed]bool, len(all))
	byPath := make(map[string]*listed, len(all))
	for _, l := range all {
		byPath[l.ImportPath] = l
		ok := l.DepOnly && l.Error == nil && (l.Standard || l.Module != nil && l.Module.Version != "" && strings.HasPrefix(l.Dir, m.modCache))
		for _, imp := range l.Imports {
			if dep := byPath[l.resolve(imp)]; ok && dep != nil && dep.ImportPath != "unsafe" && dep.ImportPath != "C" && !fixed[dep] {
				ok = false
			}
		}
		fixed[l] = ok
	}
	return fixed
}

// apply sets the export data file of every fixed dependency the memo holds and reports whether every
// dependency that needs export data now has it: all but those importing, directly or not, an input
// package, which are type-checked from source anyway.
func (m *exportMemo) apply(all []*listed) bool {
	fixed := m.fixed(all)
	reachesInput := make(map[string]bool, len(all))
	complete := true
	for _, l := range all {
		reaches := !l.DepOnly
		for _, imp := range l.Imports {
			reaches = reaches || reachesInput[l.resolve(imp)]
		}
		reachesInput[l.ImportPath] = reaches
		if reaches || l.ImportPath == "unsafe" || l.ImportPath == "C" {
			continue
		}
		file := m.paths[l.ImportPath]
		if !fixed[l] || file == "" {
			complete = false
			continue
		}
		if _, err := os.Stat(file); err != nil {
			complete = false
			continue
		}
		l.Export = file
	}
	if !complete {
		for _, l := range all {
			l.Export = ""
		}
	}
	return complete
}

// save adds the export data files of the fixed dependencies among all to the memo's record.
func (m *exportMemo) save(all []*listed) {
	fixed := m.fixed(all)
	added := false
	for _, l := range all {
		if fixed[l] && l.Export != "" && m.paths[l.ImportPath] != l.Export {
			m.paths[l.ImportPath] = l.Export
			added = true
		}
	}
	if !added {
		return
	}
	if data, err := json.Marshal(m.paths); err == nil {
		usercache.Write(m.dir, m.name, data)
	}
}
