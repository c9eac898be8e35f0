package load

import (
	"bytes"
	"encoding/json"
	"go/token"
	"path/filepath"
	"sync/atomic"

	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// A warm load whose listing and export data both come from the memos needs `go env` only to confirm
// that the memos' keys still hold. Such a load is run speculatively while `go env` runs, from the
// records found by directory, patterns and environment alone and from the export data memo the last
// such load used (its pointer), and its result is used only if the settings then confirm both keys;
// otherwise it is dropped and the load starts over. A speculative load writes nothing.

// speculationsUsed counts the loads whose speculative result was used, for tests.
var speculationsUsed atomic.Int64

// exportPointer is what a listing memo record's pointer holds: the export data memo the last load of
// that listing used.
type exportPointer struct {
	Records, Name, ModCache string
}

func (m *listMemo) pointerName() string { return m.name + ".export" }

// pointTo records that loads of m's listing use the export data memo em.
func (m *listMemo) pointTo(em *exportMemo) {
	p := exportPointer{Records: em.dir, Name: em.name, ModCache: em.modCache}
	if old, ok := m.pointer(); ok && old == p {
		return
	}
	if data, err := json.Marshal(p); err == nil {
		usercache.Write(m.dir, m.pointerName(), data)
	}
}

// pointer returns the export data memo the last load of m's listing used.
func (m *listMemo) pointer() (exportPointer, bool) {
	var p exportPointer
	data, err := usercache.Read(m.dir, m.pointerName())
	if err != nil || json.Unmarshal(data, &p) != nil || p.Name == "" {
		return exportPointer{}, false
	}
	return p, true
}

// speculation is a load started before the settings were known.
type speculation struct {
	lm      *listMemo
	key     []byte // the key the listing was recorded under
	pointer exportPointer
	done    chan speculated
}

type speculated struct {
	prog *Program
	err  error
}

// speculate starts a load of patterns from the memos, or returns nil when they do not hold all it needs.
func speculate(cfg Config, patterns []string) *speculation {
	if cfg.Deps == DepsSource {
		return nil
	}
	wd, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil
	}
	lm := newListMemo(wd, patterns)
	if lm == nil {
		return nil
	}
	all, key := lm.lookup()
	if all == nil {
		return nil
	}
	all = cfg.shape(all)
	ptr, ok := lm.pointer()
	if !ok {
		return nil
	}
	em := exportMemoAt(ptr.Records, ptr.Name, ptr.ModCache)
	if !em.apply(all) {
		return nil
	}
	fset := token.NewFileSet()
	res := &listing{all: all, memo: em, remembered: true, fromMemo: true, pre: startPreparse(fset, all)}
	spec := &speculation{lm: lm, key: key, pointer: ptr, done: make(chan speculated, 1)}
	go func() {
		prog, err := build(cfg, res, fset)
		spec.done <- speculated{prog, err}
	}()
	return spec
}

// confirm reports whether settings s give the listing memo the key the speculative listing was recorded
// under and name the export data memo it used, so that the load s would have run is the one that ran.
func (sp *speculation) confirm(s *settings) bool {
	if !sp.lm.bind(s) || !bytes.Equal(sp.key, sp.lm.key) {
		return false
	}
	em := openExportMemo(s)
	return em != nil && em.dir == sp.pointer.Records && em.name == sp.pointer.Name && em.modCache == sp.pointer.ModCache
}
