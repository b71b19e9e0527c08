package ptyagent

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// screen is a minimal terminal: just enough of xterm's cursor addressing,
// erasing and scrolling to know which text the CLI shows right now.
//
// Plain "strip the escape sequences" text is not enough for Claude Code
// 2.1.330: it draws in the alternate screen with a cell-diff renderer, so
// every update is a handful of cursor moves and changed cells, words are
// placed with CHA instead of spaces ("Echo:\x1b[9Ghello"), and a dismissed
// dialog is erased rather than followed by new text. Only a grid shows the
// current screen. Colours, attributes and modes other than the alternate
// screen are ignored.
//
// A screen is not safe for concurrent use; the detector guards it.
type screen struct {
	cols, rows int
	cells      [][]rune // rows × cols; 0 is blank or the right half of a wide rune
	x, y       int
	wrapNext   bool // the last column was written: the next rune wraps first
	top, bot   int  // scroll region, inclusive rows
	saveX      int
	saveY      int
	main       [][]rune // the main screen's cells while the alternate one shows
	printed    int      // runes put on the grid so far: the detector's rate

	state   int
	params  [maxParams]int
	nparam  int
	private byte   // '?', '>', '<' or '=' leading a CSI, else 0
	part    []byte // an incomplete UTF-8 sequence at the end of the last write
	partBuf [utf8.UTFMax]byte
}

// maxParams bounds the CSI parameters kept; extra ones are ignored.
const maxParams = 16

// Parser states.
const (
	stGround = iota
	stEsc
	stCSI
	stString  // OSC, DCS, SOS, PM, APC: skipped until BEL or ESC
	stCharset // ESC ( and friends: one more byte names the charset
)

func newScreen(cols, rows int) *screen {
	s := &screen{}
	s.resize(cols, rows)
	return s
}

// resize changes the grid size, keeping the top-left content.
func (s *screen) resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	s.cells = regrid(s.cells, cols, rows)
	if s.main != nil {
		s.main = regrid(s.main, cols, rows)
	}
	s.cols, s.rows = cols, rows
	s.top, s.bot = 0, rows-1
	s.x, s.y = min(s.x, cols-1), min(s.y, rows-1)
	s.wrapNext = false
}

func regrid(old [][]rune, cols, rows int) [][]rune {
	g := make([][]rune, rows)
	for i := range g {
		g[i] = make([]rune, cols)
		if i < len(old) {
			copy(g[i], old[i])
		}
	}
	return g
}

// lines returns the screen's rows as text, trailing blanks trimmed.
func (s *screen) lines() []string {
	out := make([]string, s.rows)
	var b strings.Builder
	for i, row := range s.cells {
		b.Reset()
		blank := 0 // blanks seen but not yet written: dropped at the end
		for _, r := range row {
			switch {
			case r == 0 || r == ' ':
				blank++
			case r == wideFill:
			default:
				for ; blank > 0; blank-- {
					b.WriteByte(' ')
				}
				b.WriteRune(r)
			}
		}
		out[i] = b.String()
	}
	return out
}

// wideFill marks the right half of a double-width rune.
const wideFill = -1

// Write feeds terminal output to the screen. It never fails.
func (s *screen) Write(p []byte) (int, error) {
	n := len(p)
	// Complete a rune split by the previous write. A byte that cannot
	// continue it means the sequence was broken: drop it and go on.
	for len(s.part) > 0 && len(p) > 0 {
		if p[0]&0xc0 != 0x80 {
			s.part = nil
			break
		}
		s.part, p = append(s.part, p[0]), p[1:]
		if utf8.FullRune(s.part) {
			r, _ := utf8.DecodeRune(s.part)
			s.part = nil
			s.put(r)
		}
	}
	for i := 0; i < len(p); {
		b := p[i]
		if s.state != stGround || b < utf8.RuneSelf {
			s.byte(b)
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) {
			s.part = append(s.partBuf[:0], p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		s.put(r)
		i += size
	}
	return n, nil
}

// byte advances the parser by one byte that is not part of a UTF-8 rune
// in the ground state.
func (s *screen) byte(b byte) {
	switch s.state {
	case stGround:
		if b == 0x1b {
			s.state = stEsc
		} else if b < 0x20 || b == 0x7f {
			s.control(b)
		} else {
			s.put(rune(b))
		}
	case stEsc:
		s.escape(b)
	case stCSI:
		s.csiByte(b)
	case stString:
		switch b {
		case 0x07:
			s.state = stGround
		case 0x1b:
			s.state = stEsc // ESC \ ends it; the backslash is then ignored
		}
	case stCharset:
		s.state = stGround
	}
}

func (s *screen) control(b byte) {
	switch b {
	case '\r':
		s.x, s.wrapNext = 0, false
	case '\n', 0x0b, 0x0c:
		s.lineFeed()
	case '\b':
		s.x, s.wrapNext = max(s.x-1, 0), false
	case '\t':
		s.x, s.wrapNext = min((s.x/8+1)*8, s.cols-1), false
	}
}

func (s *screen) escape(b byte) {
	s.state = stGround
	switch b {
	case '[':
		s.state, s.nparam, s.private = stCSI, 0, 0
		s.params[0] = 0
	case ']', 'P', 'X', '^', '_':
		s.state = stString
	case '(', ')', '*', '+', '-', '.', '/':
		s.state = stCharset
	case '7':
		s.saveX, s.saveY = s.x, s.y
	case '8':
		s.moveTo(s.saveX, s.saveY)
	case 'D':
		s.lineFeed()
	case 'E':
		s.x = 0
		s.lineFeed()
	case 'M':
		s.reverseIndex()
	case 'c':
		s.leaveAlt()
		s.erase(0, 0, s.rows-1, s.cols-1)
		s.resize(s.cols, s.rows)
		s.moveTo(0, 0)
	}
}

// put writes one rune at the cursor.
func (s *screen) put(r rune) {
	w := runeWidth(r)
	if w == 0 {
		return
	}
	w = min(w, s.cols) // a wide rune on a one-column screen
	if s.wrapNext || s.x+w > s.cols {
		s.x, s.wrapNext = 0, false
		s.lineFeed()
	}
	s.cells[s.y][s.x] = r
	if w == 2 {
		s.cells[s.y][s.x+1] = wideFill
	}
	s.printed++
	s.x += w
	if s.x >= s.cols {
		s.x, s.wrapNext = s.cols-1, true
	}
}

// runeWidth is a rune's cell count: 0 for marks and format characters,
// 2 for the East Asian wide ranges and emoji, else 1. The CLI places most
// words with absolute columns, so a rare mismatch does not spread.
func runeWidth(r rune) int {
	switch {
	case r < 0x300: // ASCII and Latin: no marks, nothing wide
		return 1
	case r == utf8.RuneError || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1f64f, r >= 0x1f900 && r <= 0x1f9ff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}
