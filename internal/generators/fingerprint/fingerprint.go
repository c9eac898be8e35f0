// Package fingerprint lets a generator run that changes nothing finish without loading types: a run records
// what it read and wrote, keyed by everything that decides its output, and a rerun compares that record
// with the disk.
//
// The key holds the invocation (flags and directory, as the caller describes them), the generator's own
// build (build information and the executable's identity), the go command's view of the build (go env:
// version, GOFLAGS, GOOS, GOARCH, experiments, cgo, the module and workspace files) and the content of
// go.mod, go.sum, go.work, go.work.sum and vendor/modules.txt. The record holds the status (size,
// modification and change times, inode) of every input file and directory and of every file and directory
// the run owns. A file's change time moves on every write and cannot be set back, so an edited, added or
// removed input or output is always noticed; a file written shortly before the run started, or during
// it, makes the run record nothing (its content may not be what the run read), and an output written
// shortly before the record is made is recorded with a hash of its content, checked by the next rerun.
// Records live under the user cache directory, never in the user's tree.
package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
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
	Path                     string
	Dir                      bool
	Size, Mod, Change, Inode int64
	Hash                     []byte // the content's hash, for an output written just before the record
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
	for _, part := range []string{"kgen generate fingerprint v1", wd, invocation} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	if err := WriteBuild(h); err != nil {
		return nil, err
	}
	if _, err := goenv.Write(h, "", goenv.Vars); err != nil {
		return nil, err
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
	w.Write([]byte(strings.Join([]string{exe, itoa(e.Size), itoa(e.Mod), itoa(e.Change), itoa(e.Inode)}, "\x00")))
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
	// modules).
	Trees        []string
	SkipPackages bool
	// Dirs are recorded with the Go files directly in them.
	Dirs []string
	// Files are recorded as they are.
	Files []string
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
		case e.Dir:
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
		if e := &in[i]; e.Dir && racy(*e, stamp) {
			e.Hash = listingHash(listings[e.Path])
		}
	}
	all := append(append(in, extra...), out...)
	slices.SortFunc(all, func(a, b entry) int { return strings.Compare(a.Path, b.Path) })
	all = slices.CompactFunc(all, func(a, b entry) bool { return a.Path == b.Path })
	return f.write(&record{Entries: all, Files: files}) == nil
}

// contentHash hashes a file's content or a directory's listing.
func contentHash(e entry) ([]byte, error) {
	if e.Dir {
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

// racy reports whether e may have changed at or after t without its status showing it.
func racy(e entry, t time.Time) bool {
	window := racyWindow
	if e.Change%int64(time.Second) == 0 {
		window = 2 * time.Second // a file system with whole-second (or coarser) times
	}
	return e.Change >= t.Add(-window).UnixNano() || e.Mod >= t.Add(-window).UnixNano()
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
			if p != root {
				listings[filepath.Dir(p)] = append(listings[filepath.Dir(p)], p)
			}
			if d.IsDir() && p != root && s.SkipPackages {
				name := d.Name()
				if name == "testdata" || name == "vendor" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
					return filepath.SkipDir
				}
				if _, err := os.Lstat(filepath.Join(p, "go.mod")); err == nil {
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
			if strings.HasSuffix(e.Name(), ".go") {
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
	for _, l := range listings {
		slices.Sort(l)
	}
	return entries, listings, nil
}

// stat returns the status of the file or directory at path.
func stat(path string) (entry, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return entry{}, err
	}
	e := entry{Path: path, Dir: info.IsDir(), Size: info.Size(), Mod: info.ModTime().UnixNano()}
	if !changeStatus(info, &e) {
		return entry{}, errNoChangeTime
	}
	if e.Dir {
		e.Size = 0 // a directory's size is its listing's storage, which the change time covers
	}
	return e, nil
}

// errNoChangeTime means the platform reports no change time, without which an edit is not certain to show.
var errNoChangeTime = errors.New("fingerprint: file change times are not available on this platform")

// sameStatus reports whether e and want have the same status.
func (e entry) sameStatus(want *entry) bool {
	return e.Dir == want.Dir && e.Size == want.Size && e.Mod == want.Mod && e.Change == want.Change && e.Inode == want.Inode
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
