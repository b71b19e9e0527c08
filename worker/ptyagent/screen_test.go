package ptyagent

import (
	"slices"
	"strings"
	"testing"
)

// TestScreen checks the terminal operations the CLI uses, on a 10×4 screen.
func TestScreen(t *testing.T) {
	tests := []struct {
		name   string
		writes []string // fed one after another
		want   []string // the four rows
	}{
		{"text and newlines", []string{"ab\r\ncd"}, []string{"ab", "cd", "", ""}},
		{"line feed keeps the column", []string{"ab\ncd"}, []string{"ab", "  cd", "", ""}},
		{"cursor position", []string{"\x1b[2;3Hx\x1b[Hy"}, []string{"y", "  x", "", ""}},
		{"column and relative moves", []string{"\x1b[3Ga\x1b[2Bb\x1b[1Ac\x1b[3Dd"}, []string{"  a", "  d c", "   b", ""}},
		{"CHA places words", []string{"Echo:\x1b[7Ghi"}, []string{"Echo: hi", "", "", ""}},
		{"erase to end of line", []string{"abcdef\x1b[1;3H\x1b[K"}, []string{"ab", "", "", ""}},
		{"erase line start and all", []string{"abcdef\r\nghijkl\x1b[1;3H\x1b[1K\x1b[2;1H\x1b[2K"}, []string{"   def", "", "", ""}},
		{"erase display below", []string{"aa\r\nbb\r\ncc\x1b[2;2H\x1b[J"}, []string{"aa", "b", "", ""}},
		{"erase display all", []string{"aa\r\nbb\x1b[2J"}, []string{"", "", "", ""}},
		{"erase chars", []string{"abcdef\x1b[1;2H\x1b[2X"}, []string{"a  def", "", "", ""}},
		{"delete and insert chars", []string{"abcdef\x1b[1;2H\x1b[2P\x1b[1;1H\x1b[1@"}, []string{" adef", "", "", ""}},
		{"autowrap", []string{"0123456789ab"}, []string{"0123456789", "ab", "", ""}},
		{"no wrap before a move", []string{"0123456789\rX"}, []string{"X123456789", "", "", ""}},
		{"scroll at the bottom", []string{"1\r\n2\r\n3\r\n4\r\n5"}, []string{"2", "3", "4", "5"}},
		{"scroll region", []string{"1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[3;1H\n\nx"}, []string{"1", "", "x", "4"}},
		{"insert and delete lines", []string{"1\r\n2\r\n3\x1b[2;1H\x1b[L\x1b[1;1H\x1b[M"}, []string{"", "2", "3", ""}},
		{"reverse index at top", []string{"1\r\n2\x1b[H\x1bMx"}, []string{"x", "1", "2", ""}},
		{"save and restore cursor", []string{"ab\x1b7\x1b[3;1Hc\x1b8d"}, []string{"abd", "", "c", ""}},
		{"alternate screen", []string{"main\x1b[?1049h\x1b[Halt", "\x1b[?1049lX"}, []string{"mainX", "", "", ""}},
		{"alternate screen starts blank", []string{"main\x1b[?1049h"}, []string{"", "", "", ""}},
		{"colours and modes ignored", []string{"\x1b[38;5;174ma\x1b[0m\x1b[?25l\x1b[>4mb\x1b[?u\x1b[>0q\x1b[c"}, []string{"ab", "", "", ""}},
		{"OSC title ignored", []string{"\x1b]0;✳ Claude Code\x07a\x1b]7501;?\x1b\\b"}, []string{"ab", "", "", ""}},
		{"charset designation ignored", []string{"\x1b(Ba\x0fb"}, []string{"ab", "", "", ""}},
		{"UTF-8 split across writes", []string{"❯", "\xe2", "\x94", "\x80x"}, []string{"❯─x", "", "", ""}},
		{"sequence split across writes", []string{"a\x1b[", "2;", "3Hb"}, []string{"a", "  b", "", ""}},
		{"broken UTF-8 dropped", []string{"a\xe2\x94b\xffc"}, []string{"abc", "", "", ""}},
		{"wide runes take two cells", []string{"日本\x1b[1;5Hx"}, []string{"日本x", "", "", ""}},
		{"wide rune wraps whole", []string{"012345678日"}, []string{"012345678", "日", "", ""}},
		{"combining marks take none", []string{"e\u0301x"}, []string{"ex", "", "", ""}},
		{"moves are clamped", []string{"\x1b[99;99Hz\x1b[999Ay"}, []string{"         y", "", "", "         z"}},
		{"huge parameter", []string{"\x1b[99999999999999999999Ca"}, []string{"         a", "", "", ""}},
		{"reset", []string{"abc\x1b[?1049hxyz\x1bc"}, []string{"", "", "", ""}},
		{"tab", []string{"a\tb"}, []string{"a       b", "", "", ""}},
		{"backspace", []string{"ab\bc"}, []string{"ac", "", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(10, 4)
			for _, w := range tt.writes {
				_, _ = s.Write([]byte(w))
			}
			if got := s.lines(); !slices.Equal(got, tt.want) {
				t.Errorf("screen\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestScreenResize(t *testing.T) {
	s := newScreen(10, 4)
	_, _ = s.Write([]byte("\x1b[?1049habcdefghij\x1b[4;10H"))
	s.resize(4, 2)
	if got := s.lines(); !slices.Equal(got, []string{"abcd", ""}) {
		t.Fatalf("shrunk %q", got)
	}
	_, _ = s.Write([]byte("Z")) // the cursor was clamped into the screen
	s.resize(6, 3)
	if got := s.lines(); !slices.Equal(got, []string{"abcd", "   Z", ""}) {
		t.Fatalf("grown %q", got)
	}
	_, _ = s.Write([]byte("\x1b[?1049l"))
	if got := s.lines(); len(got) != 3 || strings.Join(got, "") != "" {
		t.Fatalf("main screen after resize %q", got)
	}
}

// FuzzScreen feeds arbitrary bytes: the screen never panics and always
// has its size.
func FuzzScreen(f *testing.F) {
	for _, seed := range []string{
		"\x1b[2;3Hx", "\x1b[?1049h\x1b[r\x1b[5L", "\x1b]0;t\x07", "日本\xe2", "\x1b[99999P\x1b[99999@",
		"\x1b[3;2r\x1bM\x1bD\x1bE", "\x1b[;;;;;;;;;;;;;;;;;;;;;H", "\x1bP1$r\x1b\\",
	} {
		f.Add([]byte(seed), uint8(10), uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, cols, rows uint8) {
		s := newScreen(int(cols%50)+1, int(rows%20)+1)
		mid := len(data) / 2
		_, _ = s.Write(data[:mid])
		s.resize(int(rows%30)+1, int(cols%10)+1)
		_, _ = s.Write(data[mid:])
		if got := s.lines(); len(got) != s.rows {
			t.Fatalf("%d lines for %d rows", len(got), s.rows)
		}
		if s.x < 0 || s.x >= s.cols || s.y < 0 || s.y >= s.rows {
			t.Fatalf("cursor %d,%d outside %dx%d", s.x, s.y, s.cols, s.rows)
		}
	})
}
