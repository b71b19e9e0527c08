package gitdiff

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// section is one "diff --git" block of git's patch output. A type change
// (file to symlink) yields two sections with the same header.
type section struct {
	header    string // the "diff --git a/... b/..." line
	binary    bool
	truncated bool // hunks left out: over the budget
	hunks     []Hunk
}

var (
	diffGit     = []byte("diff --git ")
	hunkStart   = []byte("@@ ")
	binaryFiles = []byte("Binary files ")
	binaryPatch = []byte("GIT binary patch")
)

// parseUnified reads git's unified diff output and splits it into sections
// with parsed hunks, spending b: a section over its limits keeps no hunks
// and is marked truncated. It never fails on malformed input (what it cannot
// place is skipped) and returns only read errors. Lines in hunks are placed
// by the hunk's line counts, so a removed line "-- x" ("--- x" in the
// patch) is never taken for a file header.
func parseUnified(r io.Reader, b *budget) ([]section, error) {
	p := &parser{b: b}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, n, long, err := readLine(br, b.lineCap())
		if n > 0 {
			p.line(line, n, long)
		}
		if err == io.EOF {
			p.finish()
			return p.out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// parser holds the state of parseUnified.
type parser struct {
	b   *budget
	out []section
	cur *section // nil before the first "diff --git"

	inHunk           bool // past the section's first @@
	oldLeft, newLeft int  // lines the current hunk still expects
	oldNo, newNo     int  // line numbers of the next old and new lines
	bytes, lines     int  // size of the current section
	nums             intSlab
}

func (p *parser) line(l []byte, n int, long bool) {
	if bytes.HasPrefix(l, diffGit) {
		p.finish()
		p.start(l, n)
		return
	}
	if p.cur == nil {
		return
	}
	p.bytes += n
	switch {
	case bytes.HasPrefix(l, hunkStart):
		p.hunkHeader(l)
	case !p.inHunk:
		if bytes.HasPrefix(l, binaryFiles) || bytes.Equal(l, binaryPatch) {
			p.cur.binary = true
		}
	default:
		p.hunkLine(l)
	}
	if !p.cur.truncated && (long || !p.b.fits(p.bytes, p.lines)) {
		p.cur.truncated = true
		p.cur.hunks = nil
	}
}

func (p *parser) start(l []byte, n int) {
	p.cur = &section{header: string(l), truncated: !p.b.admit()}
	p.inHunk = false
	p.oldLeft, p.newLeft = 0, 0
	p.bytes, p.lines = n, 0
}

func (p *parser) finish() {
	if p.cur == nil {
		return
	}
	if !p.cur.truncated {
		p.b.spend(p.bytes)
	}
	p.out = append(p.out, *p.cur)
	p.cur = nil
}

func (p *parser) hunkHeader(l []byte) {
	p.inHunk = true
	h, ok := parseHunkHeader(string(l))
	if !ok {
		p.oldLeft, p.newLeft = 0, 0 // skip the lines of a hunk we cannot read
		return
	}
	p.oldLeft, p.newLeft = h.OldLines, h.NewLines
	p.oldNo, p.newNo = h.OldStart, h.NewStart
	if p.cur.truncated {
		return
	}
	h.Lines = make([]Line, 0, min(h.OldLines+h.NewLines, 64))
	p.cur.hunks = append(p.cur.hunks, h)
}

func (p *parser) hunkLine(l []byte) {
	if p.cur.truncated || len(p.cur.hunks) == 0 {
		return
	}
	h := &p.cur.hunks[len(p.cur.hunks)-1]
	op := byte(' ')
	if len(l) > 0 {
		op = l[0]
		l = l[1:]
	}
	// An empty line is a context line under diff.suppressBlankEmpty.
	var ln Line
	switch {
	case op == ' ' && p.oldLeft > 0 && p.newLeft > 0:
		ln = Line{Op: OpContext, OldNo: p.nums.ptr(p.oldNo), NewNo: p.nums.ptr(p.newNo)}
		p.oldLeft, p.newLeft, p.oldNo, p.newNo = p.oldLeft-1, p.newLeft-1, p.oldNo+1, p.newNo+1
	case op == '-' && p.oldLeft > 0:
		ln = Line{Op: OpDelete, OldNo: p.nums.ptr(p.oldNo)}
		p.oldLeft, p.oldNo = p.oldLeft-1, p.oldNo+1
	case op == '+' && p.newLeft > 0:
		ln = Line{Op: OpAdd, NewNo: p.nums.ptr(p.newNo)}
		p.newLeft, p.newNo = p.newLeft-1, p.newNo+1
	case op == '\\' && len(h.Lines) > 0:
		h.Lines[len(h.Lines)-1].NoEOL = true // "\ No newline at end of file"
		return
	default:
		return
	}
	ln.Text = string(l)
	h.Lines = append(h.Lines, ln)
	p.lines++
}

// parseHunkHeader reads "@@ -a,b +c,d @@ text"; a missing count is 1.
func parseHunkHeader(s string) (Hunk, bool) {
	rest, ok := strings.CutPrefix(s, "@@ ")
	if !ok {
		return Hunk{}, false
	}
	ranges, text, ok := strings.Cut(rest, " @@")
	if !ok {
		return Hunk{}, false
	}
	oldR, newR, ok := strings.Cut(ranges, " ")
	if !ok || !strings.HasPrefix(oldR, "-") || !strings.HasPrefix(newR, "+") {
		return Hunk{}, false
	}
	var h Hunk
	var okOld, okNew bool
	h.OldStart, h.OldLines, okOld = parseRange(oldR[1:])
	h.NewStart, h.NewLines, okNew = parseRange(newR[1:])
	h.Header = strings.TrimPrefix(text, " ")
	return h, okOld && okNew
}

func parseRange(s string) (start, n int, ok bool) {
	a, b, hasCount := strings.Cut(s, ",")
	start, ok = atoi(a)
	if !ok {
		return 0, 0, false
	}
	if !hasCount {
		return start, 1, true
	}
	n, ok = atoi(b)
	return start, n, ok
}

// atoi parses a plain decimal of at most 9 digits (no sign), so line
// arithmetic cannot overflow.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// readLine returns the next line without its "\n" and n, the bytes it took
// from r. A line longer than lineCap (when lineCap >= 0) comes back cut,
// with long set.
func readLine(r *bufio.Reader, lineCap int) (line []byte, n int, long bool, err error) {
	frag, err := r.ReadSlice('\n')
	n = len(frag)
	if err != bufio.ErrBufferFull {
		return bytes.TrimSuffix(frag, []byte("\n")), n, false, err
	}
	buf := append([]byte(nil), frag...)
	for err == bufio.ErrBufferFull {
		frag, err = r.ReadSlice('\n')
		n += len(frag)
		if lineCap < 0 || len(buf)+len(frag) <= lineCap {
			buf = append(buf, frag...)
		} else {
			long = true
		}
	}
	return bytes.TrimSuffix(buf, []byte("\n")), n, long, err
}

// intSlab hands out line-number pointers from shared chunks, so a big diff
// does not cost two allocations per line.
type intSlab struct{ buf []int }

func (s *intSlab) ptr(v int) *int {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]int, 0, 512) // earlier chunks stay alive through their pointers
	}
	s.buf = append(s.buf, v)
	return &s.buf[len(s.buf)-1]
}
