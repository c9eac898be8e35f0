package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/goenv"
	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// listMemo remembers what `go list -deps` reported for a set of file system patterns (./apis/..., an
// absolute directory), so a load whose inputs changed only in ways that cannot change the listing runs no
// go command but `go env`. The listing of a standard library or module cache package cannot change while
// the go command's settings and the module files stay the same: those are the record's key (goenv's
// settings and files, the directory and the patterns, and the go.mod and go.sum of every local module a
// go.mod or go.work replaces or uses). Everything else, the local packages, is checked against the disk:
//
//   - every directory a "..." pattern walks (as the go command does: not into testdata, vendor, "." or "_"
//     names or nested modules), every local package's directory and their parents up to their module's
//     root must hold the same entries (a file or package added, removed or renamed, a go.mod added);
//   - every Go file in those walked and package directories must have the same status (size, times,
//     inode) or, where it changed (the common case: an edited type), the same header, the bytes up to the
//     end of its imports, which hold everything the go command reads of it: build constraints, package
//     clause, imports and cgo preamble.
//
// A listing is recorded only when it holds no errors, no local package uses //go:embed (whose patterns
// the go command checks against other files), and nothing recorded changed since shortly before go list
// started (the change time moves on every write, so a record never pairs a status with content the
// listing did not see). Anything else, a GOPATH build, an import path pattern, GOFLAGS naming an
// alternative go.mod or an overlay, a platform without change times, means running go list.
//
// A record is found by the directory, the patterns and the environment's go command variables, so it is
// checked against the disk while `go env` runs; the key it was recorded under is compared once the
// settings are known.
type listMemo struct {
	dir, name string // where the record lives
	wd        string // the absolute directory patterns resolve from
	patterns  []string

	// Set by bind, from the settings:
	key      []byte
	goroot   string // GOROOT/src and the module cache, with a trailing separator
	modCache string
	mainRoot string // the directory of the main module's go.mod
	modFiles []string
	modSum   []byte // the hash of modFiles' content when the memo was bound
}

// listRecord is what a listing's record holds.
type listRecord struct {
	Key     []byte
	Listing json.RawMessage // the []*listed go list reported
	Dirs    []dirRecord
	Files   []fileRecord
}

// dirRecord holds the entries of a directory: names, with a trailing slash for directories.
type dirRecord struct {
	Path    string
	Entries []string
}

// fileRecord holds a Go file's status and the hash of its header.
type fileRecord struct {
	Path   string
	Status fileStatus
	Header []byte
}

// goListRuns counts the go list runs, for tests.
var goListRuns atomic.Int64

// newListMemo returns the memo of listings of patterns in wd, or nil when patterns are not all file
// system patterns.
func newListMemo(wd string, patterns []string) *listMemo {
	if !haveChangeTimes {
		return nil
	}
	for _, p := range patterns {
		if _, ok := patternRoot(wd, p); !ok {
			return nil
		}
	}
	records, err := usercache.Dir("list")
	if err != nil {
		return nil
	}
	h := sha256.New()
	h.Write([]byte("kgen package list memo v2\x00"))
	for _, part := range append([]string{wd}, patterns...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	env := os.Environ()
	slices.Sort(env)
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") || strings.HasPrefix(kv, "PATH=") {
			h.Write([]byte(kv))
			h.Write([]byte{0})
		}
	}
	return &listMemo{dir: records, name: hex.EncodeToString(h.Sum(nil))[:32], wd: wd, patterns: patterns}
}

// bind sets the memo's key from the go command's settings s, reporting false when they do not describe
// a module build.
func (m *listMemo) bind(s *settings) bool {
	if s == nil {
		return false
	}
	gomod := s.env["GOMOD"]
	if gomod == "" || gomod == os.DevNull || s.env["GOROOT"] == "" || s.env["GOMODCACHE"] == "" {
		return false
	}
	// Files GOFLAGS names (an alternative go.mod, an overlay of file contents) decide the listing too.
	if goenv.NamesFiles(s.env) {
		return false
	}
	modFiles := goenv.ModFiles(s.env)
	modSum, ok := hashFiles(modFiles)
	if !ok {
		return false
	}
	h := sha256.New()
	h.Write([]byte("kgen package list memo v2\x00"))
	h.Write(s.key)
	for _, part := range append([]string{m.wd}, m.patterns...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(modSum)
	sep := string(filepath.Separator)
	m.key = h.Sum(nil)
	m.goroot = filepath.Join(filepath.Clean(s.env["GOROOT"]), "src") + sep
	m.modCache = filepath.Clean(s.env["GOMODCACHE"]) + sep
	m.mainRoot = filepath.Dir(gomod)
	m.modFiles, m.modSum = modFiles, modSum
	return true
}

// hashFiles hashes the names and content of files, a missing file as empty.
func hashFiles(files []string) ([]byte, bool) {
	h := sha256.New()
	for _, name := range files {
		content, err := os.ReadFile(name)
		if err != nil && !os.IsNotExist(err) {
			return nil, false
		}
		sum := sha256.Sum256(content)
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(sum[:])
	}
	return h.Sum(nil), true
}

// patternRoot returns the directory a file system pattern names, or the root of the tree it walks, and
// whether p is such a pattern: ".", "..", an absolute path or one starting with "./" or "../", with at
// most a final "/..." as wildcard.
func patternRoot(wd, p string) (string, bool) {
	dir := p
	if p == "..." || strings.HasSuffix(p, "/...") || strings.HasSuffix(p, string(filepath.Separator)+"...") {
		dir = p[:len(p)-len("...")]
	}
	if strings.Contains(dir, "...") || strings.ContainsAny(dir, "@") {
		return "", false
	}
	local := filepath.IsAbs(dir)
	for _, prefix := range []string{"./", "../", "." + string(filepath.Separator), ".." + string(filepath.Separator)} {
		local = local || strings.HasPrefix(dir, prefix)
	}
	if !local && dir != "." && dir != ".." {
		return "", false
	}
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir), true
	}
	return filepath.Join(wd, dir), true
}

// storedRecord is a record as lookup reads it.
type storedRecord struct {
	Key     []byte
	Listing []*listed
	Dirs    []dirRecord
	Files   []fileRecord
}

// lookup returns the recorded listing, if nothing recorded changed on disk, and the key it was recorded
// under, which the caller compares with the bound key.
func (m *listMemo) lookup() ([]*listed, []byte) {
	data, err := usercache.Read(m.dir, m.name)
	if err != nil {
		return nil, nil
	}
	var rec storedRecord
	if json.Unmarshal(data, &rec) != nil || len(rec.Listing) == 0 {
		return nil, nil
	}
	for _, d := range rec.Dirs {
		entries, err := dirEntries(d.Path)
		if err != nil || !slices.Equal(entries, d.Entries) {
			return nil, nil
		}
	}
	for _, f := range rec.Files {
		st, err := statFile(f.Path)
		if err != nil {
			return nil, nil
		}
		if st == f.Status {
			continue
		}
		if h, ok := goHeader(f.Path); !ok || !bytes.Equal(h, f.Header) {
			return nil, nil
		}
	}
	return rec.Listing, rec.Key
}

// local reports whether l's files may change without the memo's key changing.
func (m *listMemo) local(l *listed) bool {
	if l.ImportPath == "C" || l.ImportPath == "unsafe" {
		return false
	}
	if l.Standard {
		return !strings.HasPrefix(l.Dir, m.goroot)
	}
	return l.Module == nil || l.Module.Version == "" || !strings.HasPrefix(l.Dir, m.modCache)
}

// prepare returns a function that records the listing all, which go list started reporting at start, or
// nil when it must not be recorded. The returned function does the file system work and may run while
// Load goes on: prepare copies what it needs.
func (m *listMemo) prepare(all []*listed, start time.Time) func() {
	listing, err := json.Marshal(all)
	if err != nil {
		return nil
	}
	var pkgs []pkgDir
	for _, l := range all {
		if l.Error != nil {
			return nil
		}
		if !m.local(l) {
			continue
		}
		if l.Module == nil || l.Dir == "" {
			return nil
		}
		for _, imp := range l.Imports {
			if imp == "embed" {
				return nil
			}
		}
		root := l.Module.Dir
		if root == "" {
			root = m.mainRoot // a vendored package
		}
		pkgs = append(pkgs, pkgDir{l.Dir, root})
	}
	return func() {
		rec := listRecord{Key: m.key, Listing: listing}
		// go list may have updated go.mod or go.sum (with -mod=mod): the listing is then not the one for
		// the content the key holds.
		if sum, ok := hashFiles(m.modFiles); !ok || !bytes.Equal(sum, m.modSum) {
			return
		}
		if m.collect(&rec, pkgs, start) {
			if data, err := json.Marshal(&rec); err == nil {
				usercache.Write(m.dir, m.name, data)
			}
		}
	}
}

// pkgDir is a local package's directory and its module's root.
type pkgDir struct{ dir, root string }

// collect fills in the directories and files of rec: those the patterns walk, the local packages'
// directories pkgs and their parents up to their module's root. It reports false if something changed
// since shortly before start, or the layout is one the memo does not follow (a symbolic link to a
// directory in a walked tree, a package outside its module's root).
func (m *listMemo) collect(rec *listRecord, pkgs []pkgDir, start time.Time) bool {
	withFiles := map[string]bool{}   // directories whose Go files are recorded
	entriesOnly := map[string]bool{} // directories recorded by their entries only
	addParents := func(dir, root string) bool {
		rel, err := filepath.Rel(root, dir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return false
		}
		for d := dir; ; d = filepath.Dir(d) {
			entriesOnly[d] = true
			if d == root || d == filepath.Dir(d) {
				return true
			}
		}
	}
	for _, p := range m.patterns {
		root, _ := patternRoot(m.wd, p)
		if !strings.HasSuffix(p, "...") {
			withFiles[root] = true
			if !addParents(root, m.mainRoot) {
				return false
			}
			continue
		}
		if !addParents(root, m.mainRoot) {
			return false
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if info, err := os.Stat(path); err != nil || info.IsDir() {
					return fs.ErrInvalid
				}
				return nil
			}
			if !d.IsDir() {
				return nil
			}
			if path != root {
				if name := d.Name(); name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if info, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && !info.IsDir() {
					entriesOnly[path] = true // a nested module, as the go command tells one
					return filepath.SkipDir
				}
			}
			withFiles[path] = true
			return nil
		})
		if err != nil {
			return false
		}
	}
	for _, p := range pkgs {
		withFiles[p.dir] = true
		if !addParents(p.dir, p.root) {
			return false
		}
	}
	for d := range withFiles {
		delete(entriesOnly, d)
	}
	dirs := append(slices.Collect(mapKeys(withFiles)), slices.Collect(mapKeys(entriesOnly))...)
	slices.Sort(dirs)
	for _, d := range dirs {
		entries, err := dirEntries(d)
		if err != nil {
			return false
		}
		// The entries were read after go list ran: the directory must not have changed since it started.
		if st, err := statFile(d); err != nil || st.racy(start) {
			return false
		}
		rec.Dirs = append(rec.Dirs, dirRecord{Path: d, Entries: entries})
		if !withFiles[d] {
			continue
		}
		for _, e := range entries {
			if !strings.HasSuffix(e, ".go") {
				continue
			}
			path := filepath.Join(d, e)
			before, err := statFile(path)
			if err != nil || before.racy(start) {
				return false
			}
			h, ok := goHeader(path)
			if after, err := statFile(path); !ok || err != nil || after != before {
				return false
			}
			rec.Files = append(rec.Files, fileRecord{Path: path, Status: before, Header: h})
		}
	}
	return true
}

func mapKeys(m map[string]bool) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// dirEntries returns the sorted entries of dir, directories with a trailing slash.
func dirEntries(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
		if e.IsDir() {
			names[i] += "/"
		}
	}
	return names, nil
}

// goHeader returns the hash of the Go file's header: its bytes up to the end of its last import
// declaration (or of its package clause), which hold all the go command reads to list a package. A file
// whose header does not parse has none.
func goHeader(path string) ([]byte, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	end := f.Name.End()
	if n := len(f.Decls); n > 0 {
		end = f.Decls[n-1].End()
	}
	sum := sha256.Sum256(src[:int(end-f.FileStart)])
	return sum[:], true
}

// fileStatus is what tells a file's or directory's content from another's without reading it.
type fileStatus struct {
	Size, Mod, Change, Inode int64
}

// racyWindow is how long before a moment a change time may fall and still come from a change made after
// it: file systems stamp times from a clock that may run a little behind, and some keep whole seconds.
const racyWindow = 50 * time.Millisecond

// racy reports whether the status may come from a change at or after t.
func (s fileStatus) racy(t time.Time) bool {
	window := racyWindow
	if s.Change%int64(time.Second) == 0 {
		window = 2 * time.Second
	}
	return s.Change >= t.Add(-window).UnixNano() || s.Mod >= t.Add(-window).UnixNano()
}

// statFile returns the status of the file at path, following symbolic links, as the go command does.
func statFile(path string) (fileStatus, error) {
	info, err := os.Stat(path)
	if err != nil {
		return fileStatus{}, err
	}
	s := fileStatus{Size: info.Size(), Mod: info.ModTime().UnixNano()}
	changeTime(info, &s)
	return s, nil
}
