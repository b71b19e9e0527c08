package gitdiff

import (
	"errors"
	"strings"
)

// change is one entry of "git diff --raw --numstat -z".
type change struct {
	path, oldPath        string // oldPath only for renames and copies
	status               byte   // A, C, D, M, R, T, U or X
	oldMode, newMode     string
	additions, deletions int
	binary               bool
}

var errRawFormat = errors.New("unexpected git diff --raw output")

// parseRawNumstat reads the NUL-separated raw records (":<old mode> <new
// mode> <old sha> <new sha> <status>" then one path, or two for R and C)
// followed by the numstat records ("<add>\t<del>\t<path>", or
// "<add>\t<del>\t" then old and new path for a rename). Numstat counts are
// matched to raw records by path; "-" counts mean binary.
func parseRawNumstat(out []byte) ([]change, error) {
	tok := strings.Split(string(out), "\x00")
	var changes []change
	byPath := make(map[string]int)
	for i := 0; i < len(tok); i++ {
		t := tok[i]
		if t == "" {
			continue
		}
		paths := 1
		if t[0] == ':' {
			c, err := parseRawMeta(t)
			if err != nil {
				return nil, err
			}
			if c.status == 'R' || c.status == 'C' {
				paths = 2
			}
			if i+paths >= len(tok) {
				return nil, errRawFormat
			}
			if paths == 2 {
				c.oldPath = tok[i+1]
			}
			c.path = tok[i+paths]
			byPath[c.path] = len(changes)
			changes = append(changes, c)
			i += paths
			continue
		}
		fields := strings.SplitN(t, "\t", 3)
		if len(fields) != 3 {
			return nil, errRawFormat
		}
		path := fields[2]
		if path == "" { // a rename: old and new path follow
			if i+2 >= len(tok) {
				return nil, errRawFormat
			}
			path = tok[i+2]
			i += 2
		}
		if j, ok := byPath[path]; ok {
			addNumstat(&changes[j], fields[0], fields[1])
		}
	}
	return changes, nil
}

func parseRawMeta(t string) (change, error) {
	f := strings.Fields(t[1:])
	if len(f) != 5 || f[4] == "" {
		return change{}, errRawFormat
	}
	return change{oldMode: f[0], newMode: f[1], status: f[4][0]}, nil
}

func addNumstat(c *change, add, del string) {
	if add == "-" || del == "-" {
		c.binary = true
		return
	}
	a, okA := atoi(add)
	d, okD := atoi(del)
	if okA && okD {
		c.additions += a
		c.deletions += d
	}
}

// status maps a raw status letter to a File status.
func (c *change) fileStatus() string {
	switch c.status {
	case 'A', 'C':
		return StatusAdded
	case 'D':
		return StatusDeleted
	case 'R':
		return StatusRenamed
	}
	return StatusModified // M, T (type change), U (unmerged), X
}

// header is the "diff --git" line git prints for c.
func (c *change) header() string {
	old := c.path
	if c.oldPath != "" {
		old = c.oldPath
	}
	return "diff --git " + quotePath("a/"+old) + " " + quotePath("b/"+c.path)
}

// quotePath quotes a path as git does in patch headers with
// core.quotepath=off: only '"', '\\' and control characters force quotes.
func quotePath(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 || r == 0x7f }) {
		return s
	}
	const escapes = "abtnvfr"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '\a' && c <= '\r':
			b.WriteByte('\\')
			b.WriteByte(escapes[c-'\a'])
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteByte('\\')
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
