// Package fingerprint lets a generator run that changes nothing finish without loading types: a run records
// what it read and wrote, keyed by everything that decides its output, and a rerun compares that record
// with the disk.
//
// The key holds the invocation (flags and directory, as the caller describes them), the generator's own
// build (build information, the executable's identity) and GODEBUG, the go command's view of the build
// (go env: version, GOFLAGS, GOOS, GOARCH, experiments, cgo, the module and workspace files) and the
// content of the module files that decide the module graph (goenv.ModFiles: go.mod, go.sum, go.work,
// go.work.sum, vendor/modules.txt, and the go.mod and go.sum of every local module a go.mod or go.work
// replaces or uses). GOFLAGS naming an alternative go.mod or an overlay makes no record.
//
// The record holds the status (size, modification and change times, inode) of every input file and
// directory, of what each symbolic link among them resolves to, of what decides which module a package
// belongs to (a nested module's directory and go.mod; a go.mod between a local package and its module's
// root, or that there is none), and of every file and directory the run owns. A file's change time moves
// on every write and cannot be set back, so an edited, added or removed input or output is always
// noticed; a file written shortly before the run started, or during it, makes the run record nothing (its
// content may not be what the run read), and an output written shortly before the record is made is
// recorded with a hash of its content, checked by the next rerun. Records live under the user cache
// directory, never in the user's tree.
package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/goenv"
	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// Fingerprint is the record of one invocation: what its last run read and wrote.
type Fingerprint struct {
	file  string    // where the record lives
	start time.Time // when the run began, for racy inputs

	inputs   Sources          // what Begin recorded
	snapshot map[string]entry // their status at Begin
	listings map[string][]string
	snapTime time.Time
}

// record is what a run stores.
type record struct {
	Entries []entry
	Files   int // the number of files the run generated, for the rerun's message
}

// entry is the status of one file or directory the run read or wrote.
type entry struct {
	Path string
	Own  status // the file's or directory's own, a symbolic link's for a link
	// Target is, for a symbolic link, the status of the file or directory it resolves to (its Inode is
	// -1 when it resolves to nothing): what the go command reads through the link.
	Target *status
	Hash   []byte // the content's hash, for an output written just before the record
	// Absent marks a path that did not exist and must not: Own and Target are unset.
	Absent bool
}

// status is what a file's or directory's metadata says of it.
type status struct {
	Dir                      bool
	Size, Mod, Change, Inode int64
}

// New returns the fingerprint of an invocation run in the current directory: invocation describes
// everything else that decides the output (the flags, after defaults, and the input directory). It runs
// `go env` once. The error says why a rerun cannot be skipped (no cache directory, no go command).
func New(invocation string) (*Fingerprint, error) {
	start := time.Now()
	dir, err := usercache.Dir("generate")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	// GODEBUG settings can change how go/types describes the inputs (gotypesalias), so they are part of the
	// program's behaviour.
	for _, part := range []string{"kgen generate fingerprint v2", wd, invocation, "GODEBUG=" + os.Getenv("GODEBUG")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	if err := WriteBuild(h); err != nil {
		return nil, err
	}
	env, err := goenv.Write(h, "", goenv.Vars)
	if err != nil {
		return nil, err
	}
	if goenv.NamesFiles(env) {
		return nil, errors.New("fingerprint: GOFLAGS names an alternative go.mod or an overlay, which no record covers")
	}
	file := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:32])
	return &Fingerprint{file: file, start: start}, nil
}

// WriteBuild writes the identity of this program: its build information and its executable's status,
// which a rebuild changes even when the version does not (a development build).
func WriteBuild(w io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return errors.New("no build information")
	}
	w.Write([]byte(info.String()))
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	e, err := stat(exe)
	if err != nil {
		return err
	}
	w.Write([]byte(strings.Join([]string{exe, itoa(e.Own.Size), itoa(e.Own.Mod), itoa(e.Own.Change), itoa(e.Own.Inode)}, "\x00")))
	return nil
}

// Unchanged reports whether the last run of the invocation recorded its inputs and outputs and every one of
// them is as it was then, and how many files that run generated. A rerun that finds the record current but
// holding hashes of just-written outputs checks their content and records their status afresh.
func (f *Fingerprint) Unchanged() (files int, ok bool) {
	rec, err := f.read()
	if err != nil {
		return 0, false
	}
	rehashed := false
	for i := range rec.Entries {
		want := &rec.Entries[i]
		if want.Absent {
			if _, err := os.Lstat(want.Path); !errors.Is(err, fs.ErrNotExist) {
				return 0, false
			}
			continue
		}
		got, err := stat(want.Path)
		if err != nil || !got.sameStatus(want) {
			return 0, false
		}
		if want.Hash != nil {
			if sum, err := contentHash(got); err != nil || !bytes.Equal(sum, want.Hash) {
				return 0, false
			}
			if !racy(got, f.start) {
				want.Hash, rehashed = nil, true
			}
		}
	}
	if rehashed {
		f.write(rec) // best effort: the next rerun hashes again if this fails
	}
	return rec.Files, true
}

// Sources are the files and directories of one side of a run.
type Sources struct {
	// Trees are walked: every directory under them and every file in those directories. SkipPackages
	// leaves out what a "./..." package pattern leaves out (testdata, vendor, "_" and "." names, nested
	// modules); of a nested module, the directory and its go.mod are recorded, so its joining the tree
	// (its go.mod removed) is noticed. A tree whose root is a symbolic link is not recorded.
	Trees        []string
	SkipPackages bool
	// Dirs are recorded with every file directly in them.
	Dirs []string
	// Files are recorded as they are: a file, or a directory, whose status covers its entries' names.
	Files []string
	// Absent are paths that do not exist and must not: one created later (a go.mod above a local package,
	// which takes it out of its module) is noticed.
	Absent []string
}

// Begin records the status of the inputs known before the run reads them (the input tree, the header
// file), and the listings of their directories. The run may then write into them: Save tells its own
// writes from other changes.
func (f *Fingerprint) Begin(inputs Sources) error {
	f.snapTime = time.Now()
	f.inputs = inputs
	entries, listings, err := collect(inputs)
	if err != nil {
		return err
	}
	f.snapshot = make(map[string]entry, len(entries))
	for _, e := range entries {
		f.snapshot[e.Path] = e
	}
	f.listings = listings
	return nil
}

// Save records the run that generated files from the inputs given to Begin and from more (what the run
// found it read, such as the local packages the inputs import) into outputs, unless an input may have
// changed while it ran. written are the paths the run wrote or removed, which may lie among the inputs;
// outputs must hold exactly what the run wrote. It reports whether it recorded the run: a failure to
// record is not an error, since the rerun then simply runs.
func (f *Fingerprint) Save(files int, more, outputs Sources, written []string) bool {
	if f.snapshot == nil {
		return false
	}
	ours := make(map[string]bool, len(written))
	for _, p := range written {
		ours[filepath.Clean(p)] = true
	}
	underOutputs := func(p string) bool {
		if ours[p] {
			return true
		}
		for _, root := range outputs.Trees {
			if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	now, listings, err := collect(f.inputs)
	if err != nil {
		return false
	}
	var in []entry
	seen := map[string]bool{}
	for _, e := range now {
		seen[e.Path] = true
		if underOutputs(e.Path) {
			continue
		}
		before, ok := f.snapshot[e.Path]
		switch {
		case !ok:
			return false
		case e.Own.Dir:
			// A directory's listing is compared whenever its status may not show a change.
			if (racy(before, f.snapTime) || !e.sameStatus(&before)) && !sameListing(f.listings[e.Path], listings[e.Path], ours) {
				return false
			}
		case racy(before, f.snapTime) || !e.sameStatus(&before):
			return false
		}
		in = append(in, e)
	}
	for p := range f.snapshot {
		if !seen[p] && !ours[p] {
			return false
		}
	}
	extra, _, err := collect(more)
	if err != nil {
		return false
	}
	for _, e := range extra {
		if racy(e, f.start) {
			return false
		}
	}
	out, _, err := collect(outputs)
	if err != nil {
		return false
	}
	stamp := time.Now()
	for i := range out {
		if e := &out[i]; racy(*e, stamp) {
			if e.Hash, err = contentHash(*e); err != nil {
				return false
			}
		}
	}
	for i := range in {
		if e := &in[i]; e.Own.Dir && racy(*e, stamp) {
			if listing, ok := listings[e.Path]; ok {
				e.Hash = listingHash(listing)
			} else if e.Hash, err = contentHash(*e); err != nil { // a nested module's, not walked
				return false
			}
		}
	}
	all := append(append(in, extra...), out...)
	slices.SortFunc(all, func(a, b entry) int { return strings.Compare(a.Path, b.Path) })
	all = slices.CompactFunc(all, func(a, b entry) bool { return a.Path == b.Path })
	return f.write(&record{Entries: all, Files: files}) == nil
}

// contentHash hashes a file's content or a directory's listing.
func contentHash(e entry) ([]byte, error) {
	if e.Own.Dir || e.Target != nil && e.Target.Dir {
		entries, err := os.ReadDir(e.Path)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(entries))
		for i, d := range entries {
			names[i] = filepath.Join(e.Path, d.Name())
		}
		return listingHash(names), nil
	}
	content, err := os.ReadFile(e.Path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(content)
	return sum[:], nil
}

// listingHash hashes a sorted directory listing.
func listingHash(paths []string) []byte {
	sum := sha256.Sum256([]byte(strings.Join(paths, "\x00")))
	return sum[:]
}

// sameListing reports whether a directory's listing changed from before to after only by files the run
// wrote or removed (given by full path in ours).
func sameListing(before, after []string, ours map[string]bool) bool {
	if before == nil || after == nil {
		return false
	}
	differs := func(a, b []string) bool {
		for _, p := range a {
			if _, found := slices.BinarySearch(b, p); !found && !ours[p] {
				return true
			}
		}
		return false
	}
	return !differs(before, after) && !differs(after, before)
}

// Discard removes the record, as a run that starts writing does: a failed or interrupted run must leave no
// record of the outputs it replaced.
func (f *Fingerprint) Discard() { os.Remove(f.file) }

// racyWindow is how long before a moment a file's change time may fall and still have been made after it:
// file systems stamp times from a clock that runs behind by up to a few milliseconds, and some keep
// whole seconds only.
const racyWindow = 50 * time.Millisecond

// racy reports whether e, or what it links to, may have changed at or after t without its status showing
// it.
func racy(e entry, t time.Time) bool {
	return e.Own.racy(t) || e.Target != nil && e.Target.Inode != -1 && e.Target.racy(t)
}

func (s status) racy(t time.Time) bool {
	window := racyWindow
	if s.Change%int64(time.Second) == 0 {
		window = 2 * time.Second // a file system with whole-second (or coarser) times
	}
	return s.Change >= t.Add(-window).UnixNano() || s.Mod >= t.Add(-window).UnixNano()
}

// collect stats every file and directory of s, sorted by path, and lists (as sorted full paths) the
// directories of its trees.
func collect(s Sources) ([]entry, map[string][]string, error) {
	paths := map[string]bool{}
	listings := map[string][]string{}
	for _, root := range s.Trees {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == root {
					return filepath.SkipDir
				}
				return err
			}
			if p == root && d.Type()&fs.ModeSymlink != 0 {
				// Its files would be recorded by paths the run does not use.
				return fmt.Errorf("fingerprint: %s is a symbolic link", root)
			}
			if p != root {
				listings[filepath.Dir(p)] = append(listings[filepath.Dir(p)], p)
			}
			if d.IsDir() && p != root && s.SkipPackages {
				name := d.Name()
				if name == "testdata" || name == "vendor" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
					return filepath.SkipDir
				}
				// A nested module, as the go command tells one: a go.mod that is, or links to, a file.
				if gomod := filepath.Join(p, "go.mod"); isFile(gomod) {
					paths[p], paths[gomod] = true, true
					return filepath.SkipDir
				}
			}
			paths[p] = true
			if d.IsDir() && listings[p] == nil {
				listings[p] = []string{}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	for _, dir := range s.Dirs {
		if paths[dir] {
			continue // listed already
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, err
		}
		paths[dir] = true
		for _, e := range entries {
			if !e.IsDir() {
				paths[filepath.Join(dir, e.Name())] = true
			}
		}
	}
	for _, p := range s.Files {
		paths[p] = true
	}
	sorted := slices.Sorted(func(yield func(string) bool) {
		for p := range paths {
			if !yield(p) {
				return
			}
		}
	})
	entries := make([]entry, 0, len(sorted))
	for _, p := range sorted {
		e, err := stat(p)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, e)
	}
	for _, p := range s.Absent {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("fingerprint: %s exists", p)
		}
		entries = append(entries, entry{Path: p, Absent: true})
	}
	for _, l := range listings {
		slices.Sort(l)
	}
	return entries, listings, nil
}

// isFile reports whether path is, or links to, a file other than a directory.
func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// stat returns the status of the file or directory at path and, for a symbolic link, of what it resolves
// to: editing a link's target changes nothing of the link's own status.
func stat(path string) (entry, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return entry{}, err
	}
	e := entry{Path: path}
	if !e.Own.fill(info) {
		return entry{}, errNoChangeTime
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		e.Target = &status{Inode: -1}
		if target, err := os.Stat(path); err == nil && !e.Target.fill(target) {
			return entry{}, errNoChangeTime
		}
	}
	return e, nil
}

// fill sets s from info, reporting whether the platform reports a change time.
func (s *status) fill(info fs.FileInfo) bool {
	*s = status{Dir: info.IsDir(), Size: info.Size(), Mod: info.ModTime().UnixNano()}
	if s.Dir {
		s.Size = 0 // a directory's size is its listing's storage, which the change time covers
	}
	return changeStatus(info, s)
}

// errNoChangeTime means the platform reports no change time, without which an edit is not certain to show.
var errNoChangeTime = errors.New("fingerprint: file change times are not available on this platform")

// sameStatus reports whether e and want have the same status, and resolve to the same status if links.
func (e entry) sameStatus(want *entry) bool {
	if e.Own != want.Own || (e.Target == nil) != (want.Target == nil) {
		return false
	}
	return e.Target == nil || *e.Target == *want.Target
}

func (f *Fingerprint) read() (*record, error) {
	content, err := usercache.Read(filepath.Split(f.file))
	if err != nil {
		return nil, err
	}
	rec := new(record)
	if err := gob.NewDecoder(bytes.NewReader(content)).Decode(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// write stores rec atomically, so a concurrent reader sees the old record or the new one.
func (f *Fingerprint) write(rec *record) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(rec); err != nil {
		return err
	}
	dir, name := filepath.Split(f.file)
	return usercache.Write(dir, name, buf.Bytes())
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
