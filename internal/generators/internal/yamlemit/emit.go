package yamlemit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// Emit writes root, a Map or a Struct holding Maps, Structs, slices ([]any), strings, json.Number,
// booleans and nil, as go-yaml v2 marshals the equal Go value, byte for byte, without go-yaml's event
// machinery: block mappings (a Map's keys sorted as go-yaml sorts a map's, a Struct's members in their
// order), sequences indented as go-yaml indents them, empty collections in flow style, and every scalar
// in the style and with the line folding (at 80 columns) go-yaml chooses. It reports false for what it
// does not cover (an empty root, a character outside printable Unicode's basic plane but tab and
// newline, a key longer than 128 bytes or holding a newline, a value of another type); the caller then
// marshals with go-yaml.
func Emit(root any) ([]byte, bool) {
	var m []Member
	sorted := false
	switch r := root.(type) {
	case Map:
		m, sorted = r, true
	case Struct:
		m = r
	}
	if len(m) == 0 {
		return nil, false
	}
	buf, _ := emitBuffers.Get().(*[]byte)
	if buf == nil {
		buf = new(make([]byte, 0, 64<<10))
	}
	defer emitBuffers.Put(buf)
	e := &yamlEmitter{out: (*buf)[:0], whitespace: true, indention: true}
	defer func() { *buf = e.out[:0] }()
	if !e.mapping(m, sorted, 0) {
		return nil, false
	}
	// The document ends as go-yaml ends it: on a new line unless the last scalar ended with one.
	if !e.indention || e.column > 0 || !e.whitespace {
		e.newline()
	}
	return bytes.Clone(e.out), true
}

// emitBuffers holds Emit's output buffers, grown to the documents written, for reuse: a document is
// copied out once, rather than grown and regrown.
var emitBuffers sync.Pool

// yamlEmitter holds the output and the state go-yaml's emitter keeps about the current line: its column
// (in characters), whether the last thing written was whitespace, and whether the line holds only
// indentation so far.
type yamlEmitter struct {
	out                   []byte
	column                int
	whitespace, indention bool
}

// foldWidth is the column past which go-yaml breaks plain and quoted scalars at a space.
const foldWidth = 80

func (e *yamlEmitter) newline() {
	e.out = append(e.out, '\n')
	e.column = 0
}

func (e *yamlEmitter) byte(b byte) {
	e.out = append(e.out, b)
	e.column++
}

// char writes the character of s starting at i and returns its width in bytes.
func (e *yamlEmitter) char(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		e.out = append(e.out, s[i])
		e.column++
		return 1
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return w
}

// indent starts a line at column n unless the current line holds nothing but indentation up to n.
func (e *yamlEmitter) indent(n int) {
	if !e.indention || e.column > n || e.column == n && !e.whitespace {
		e.newline()
	}
	for e.column < n {
		e.byte(' ')
	}
	e.whitespace, e.indention = true, true
}

// indicator writes an indicator such as ":" or "-", after a space if needWhitespace and the line does
// not end in whitespace.
func (e *yamlEmitter) indicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.byte(' ')
	}
	e.out = append(e.out, s...)
	e.column += len(s)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// mapping writes a non-empty block mapping whose keys start at column ind, sorting m's members in place
// if sorted.
func (e *yamlEmitter) mapping(m []Member, sorted bool, ind int) bool {
	if sorted {
		slices.SortFunc(m, func(a, b Member) int { return compareKeys(a.Key, b.Key) })
	}
	for i, member := range m {
		k := member.Key
		if sorted && i > 0 && m[i-1].Key == k {
			return false // a duplicate key, which go-yaml would have merged in its map
		}
		e.indent(ind)
		if len(k) > 128 || strings.Contains(k, "\n") {
			return false // go-yaml writes it as a complex key
		}
		style, ok := stringStyle(k)
		if !ok {
			return false
		}
		e.scalar(k, style, false, ind+2)
		e.indicator(":", false, false, false)
		if !e.node(member.Value, ind, true) {
			return false
		}
	}
	return true
}

// sequence writes a non-empty block sequence whose dashes are at column ind.
func (e *yamlEmitter) sequence(l []any, ind int) bool {
	for _, v := range l {
		e.indent(ind)
		e.indicator("-", true, false, true)
		if !e.node(v, ind, false) {
			return false
		}
	}
	return true
}

// node writes v as the value of a mapping (inMapping) or an item of a sequence whose indentation is ind.
func (e *yamlEmitter) node(v any, ind int, inMapping bool) bool {
	switch v := v.(type) {
	case Map:
		return e.object(v, true, ind)
	case Struct:
		return e.object(v, false, ind)
	case []any:
		if len(v) == 0 {
			e.indicator("[", true, true, false)
			e.indicator("]", false, false, false)
			return true
		}
		// A sequence in a mapping is not indented further: its dashes align with the keys.
		if inMapping && !e.indention {
			return e.sequence(v, ind)
		}
		return e.sequence(v, ind+2)
	case string:
		style, ok := stringStyle(v)
		if !ok {
			return false
		}
		e.scalar(v, style, true, ind+2)
	case json.Number:
		s, ok := numberText(v)
		if !ok {
			return false
		}
		e.scalar(s, plainStyle, true, ind+2)
	case bool:
		e.scalar(strconv.FormatBool(v), plainStyle, true, ind+2)
	case nil:
		e.scalar("null", plainStyle, true, ind+2)
	default:
		return false
	}
	return true
}

// object writes a mapping value: {} when empty, else a block mapping indented below ind.
func (e *yamlEmitter) object(m []Member, sorted bool, ind int) bool {
	if len(m) == 0 {
		e.indicator("{", true, true, false)
		e.indicator("}", false, false, false)
		return true
	}
	return e.mapping(m, sorted, ind+2)
}

// numberText is how go-yaml writes the number a JSON number literal is read as.
func numberText(n json.Number) (string, bool) {
	// An integer literal (JSON has no leading zeros) that fits int64 reads as itself.
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	var v any
	if err := yamlv2.Unmarshal([]byte(n), &v); err != nil {
		return "", false
	}
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case float64:
		switch s := strconv.FormatFloat(v, 'g', -1, 64); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	}
	return "", false
}

type scalarStyle int

const (
	plainStyle scalarStyle = iota
	singleQuotedStyle
	doubleQuotedStyle
	literalStyle
)

// scalar writes s in style; breaks allows folding (values, not keys); ind is the scalar's indentation,
// where folded and literal lines continue.
func (e *yamlEmitter) scalar(s string, style scalarStyle, breaks bool, ind int) {
	switch style {
	case plainStyle:
		if !e.whitespace {
			e.byte(' ')
		}
		if n := utf8.RuneCountInString(s); !breaks || e.column+n <= foldWidth+1 {
			// No space falls past the fold column.
			e.out = append(e.out, s...)
			e.column += n
			e.whitespace, e.indention = false, false
			return
		}
		spaces := false
		for i := 0; i < len(s); {
			if s[i] == ' ' {
				if breaks && !spaces && e.column > foldWidth && !(i+1 < len(s) && s[i+1] == ' ') {
					e.indent(ind)
					i++
				} else {
					i += e.char(s, i)
				}
				spaces = true
				continue
			}
			i += e.char(s, i)
			e.indention = false
			spaces = false
		}
		e.whitespace, e.indention = false, false
	case singleQuotedStyle:
		e.indicator("'", true, false, false)
		spaces := false
		for i := 0; i < len(s); {
			if s[i] == ' ' {
				if breaks && !spaces && e.column > foldWidth && i > 0 && i < len(s)-1 && s[i+1] != ' ' {
					e.indent(ind)
					i++
				} else {
					i += e.char(s, i)
				}
				spaces = true
				continue
			}
			if s[i] == '\'' {
				e.byte('\'')
			}
			i += e.char(s, i)
			e.indention = false
			spaces = false
		}
		e.indicator("'", false, false, false)
		e.whitespace, e.indention = false, false
	case doubleQuotedStyle:
		e.indicator("\"", true, false, false)
		spaces := false
		for i := 0; i < len(s); {
			switch c := s[i]; c {
			case '\t', '\n', '"', '\\':
				e.byte('\\')
				switch c {
				case '\t':
					c = 't'
				case '\n':
					c = 'n'
				}
				e.byte(c)
				i++
				spaces = false
			case ' ':
				if breaks && !spaces && e.column > foldWidth && i > 0 && i < len(s)-1 {
					e.indent(ind)
					if s[i+1] == ' ' {
						e.byte('\\')
					}
					i++
				} else {
					i += e.char(s, i)
				}
				spaces = true
			default:
				i += e.char(s, i)
				spaces = false
			}
		}
		e.indicator("\"", false, false, false)
		e.whitespace, e.indention = false, false
	case literalStyle:
		e.indicator("|", true, false, false)
		if s[0] == ' ' || s[0] == '\n' {
			e.indicator("2", false, false, false)
		}
		switch {
		case !strings.HasSuffix(s, "\n"):
			e.indicator("-", false, false, false)
		case len(s) == 1 || s[len(s)-2] == '\n':
			e.indicator("+", false, false, false)
		}
		e.newline()
		e.indention, e.whitespace = true, true
		for rest := s; rest != ""; {
			line, tail, found := strings.Cut(rest, "\n")
			if line != "" {
				e.indent(ind)
				e.out = append(e.out, line...)
				e.column += utf8.RuneCountInString(line)
				e.indention = false
			}
			if found {
				e.newline()
				e.indention = true
			}
			rest = tail
		}
	}
}

// stringStyle returns the style go-yaml writes the string s in, as a mapping value or key (the same for
// the strings Emit writes), and false for a string holding characters Emit leaves to go-yaml.
// The styles of long strings (descriptions, which a type's uses repeat) are remembered.
func stringStyle(s string) (scalarStyle, bool) {
	if len(s) < rememberedStyleLen {
		return findStringStyle(s)
	}
	if v, ok := longStyles.Load(s); ok {
		r := v.(styleResult)
		return r.style, r.ok
	}
	style, ok := findStringStyle(s)
	longStyles.Store(s, styleResult{style, ok})
	return style, ok
}

// rememberedStyleLen is the length from which stringStyle remembers a string's style: finding it costs
// more than looking it up.
const rememberedStyleLen = 48

// longStyles maps the long strings stringStyle has seen to their styleResult.
var longStyles sync.Map

type styleResult struct {
	style scalarStyle
	ok    bool
}

func findStringStyle(s string) (scalarStyle, bool) {
	a, ok := analyzeScalar(s)
	if !ok {
		return 0, false
	}
	if strings.Contains(s, "\n") {
		if !a.block {
			return doubleQuotedStyle, true
		}
		return literalStyle, true
	}
	plain, ok := plainString(s)
	if !ok {
		return probeStyle(s)
	}
	switch {
	case !plain:
		return doubleQuotedStyle, true
	case a.blockPlain:
		return plainStyle, true
	case a.single:
		return singleQuotedStyle, true
	}
	return doubleQuotedStyle, true
}

// scalarAnalysis tells which styles can hold a string.
type scalarAnalysis struct {
	blockPlain, single, block bool
}

// analyzeScalar finds which styles can hold s as go-yaml's emitter decides it, reporting false for
// characters other than printable ones of the basic multilingual plane, tab and newline.
func analyzeScalar(s string) (scalarAnalysis, bool) {
	if s == "" {
		return scalarAnalysis{blockPlain: true, single: true}, true
	}
	var indicators, lineBreaks, special, leadingBlank, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		indicators = true
	}
	prevBlank := true // the previous character is blank, a break or the start
	prevSpace, prevBreak := false, false
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			// Never an indicator, a blank or a break.
			r, w := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && w <= 1 || !printableOrHandled(r) {
				return scalarAnalysis{}, false
			}
			prevSpace, prevBreak, prevBlank = false, false, false
			i += w
			continue
		}
		if c != '\t' && c != '\n' && (c < 0x20 || c > 0x7e) {
			return scalarAnalysis{}, false
		}
		last := i+1 == len(s)
		followedByBlank := last || s[i+1] == ' ' || s[i+1] == '\t'
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				indicators = indicators || followedByBlank
			}
		} else {
			switch c {
			case ':':
				indicators = indicators || followedByBlank
			case '#':
				indicators = indicators || prevBlank
			}
		}
		switch c {
		case '\t':
			special = true
			prevSpace, prevBreak = false, false
		case ' ':
			leadingBlank = leadingBlank || i == 0
			trailingSpace = trailingSpace || last
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case '\n':
			lineBreaks = true
			leadingBlank = leadingBlank || i == 0
			trailingBreak = trailingBreak || last
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		prevBlank = c == ' ' || c == '\t' || c == '\n'
		i++
	}
	a := scalarAnalysis{blockPlain: true, single: true, block: true}
	if leadingBlank || trailingSpace || trailingBreak || lineBreaks || indicators {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain, a.single = false, false
	}
	if spaceBreak || special {
		a = scalarAnalysis{}
	}
	return a, true
}

// printableOrHandled reports whether r is a character Emit writes as go-yaml does: printable ASCII,
// tab, newline and the printable characters of the basic multilingual plane but the byte order mark and
// the Unicode line and paragraph separators.
func printableOrHandled(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r >= 0x20 && r <= 0x7e:
		return true
	case r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	}
	return r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd
}

// plainString reports whether s (without a newline) reads back as a string when written plain, and false
// for ok where only go-yaml's resolver can tell (a string starting with a sign, digit or period).
func plainString(s string) (plain, ok bool) {
	if s == "" {
		return false, true
	}
	switch s[0] {
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return false, false
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~':
		switch s {
		case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
			"on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL":
			return false, true
		}
	}
	return true, true
}

// probedStyles caches probeStyle.
var probedStyles sync.Map

// probeStyle asks go-yaml which style it writes s (without a newline) in.
func probeStyle(s string) (scalarStyle, bool) {
	if v, ok := probedStyles.Load(s); ok {
		return v.(scalarStyle), true
	}
	out, err := yamlv2.Marshal(s)
	if err != nil || len(out) == 0 {
		return 0, false
	}
	style := plainStyle
	switch out[0] {
	case '\'':
		style = singleQuotedStyle
	case '"':
		style = doubleQuotedStyle
	case '|', '>', '!':
		return 0, false
	}
	probedStyles.Store(s, style)
	return style, true
}

// compareKeys orders mapping keys as go-yaml does: character by character, letters after other
// characters, and runs of digits by their value.
func compareKeys(a, b string) int {
	if a == b {
		return 0
	}
	if keyLess(a, b) {
		return -1
	}
	return 1
}

func keyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		aLetter, bLetter := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if aLetter && bLetter {
			return ar[i] < br[i]
		}
		if aLetter || bLetter {
			return bLetter
		}
		// Compare the digit runs starting here by value; a zero continuing a number that began with a
		// non-zero digit counts as part of it.
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}
