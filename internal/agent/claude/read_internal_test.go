package claude

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	type res struct {
		line string
		err  error
	}
	long := strings.Repeat("x", 100)
	tests := []struct {
		name  string
		in    string
		limit int
		want  []res
	}{
		{"lines", "a\nbb\n", 10, []res{{"a", nil}, {"bb", nil}, {"", io.EOF}}},
		{"blank line", "\n", 10, []res{{"", nil}, {"", io.EOF}}},
		{"no final newline", "a\nbc", 10, []res{{"a", nil}, {"bc", io.EOF}}},
		{"at limit", "abcd\n", 4, []res{{"abcd", nil}, {"", io.EOF}}},
		{"over limit", "abcde\nok\n", 4, []res{{"abcde", ErrLineTooLong}, {"ok", nil}, {"", io.EOF}}},
		// Longer than bufio's buffer (16 bytes here): assembled from chunks.
		{"spans buffer", long + "\n", 200, []res{{long, nil}, {"", io.EOF}}},
		{"spans buffer, too long", long + "\nok\n", 50, []res{{long, ErrLineTooLong}, {"ok", nil}}},
		{"too long at EOF", long, 50, []res{{long, ErrLineTooLong}, {"", io.EOF}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tt.in), 16)
			for i, w := range tt.want {
				got, err := readLine(r, tt.limit)
				if !errors.Is(err, w.err) || (err == nil) != (w.err == nil) {
					t.Fatalf("read %d: err = %v, want %v", i, err, w.err)
				}
				if errors.Is(err, ErrLineTooLong) {
					// Only the start of the line is kept, for the log.
					if len(got) == 0 || len(got) > tooLongPrefix || !strings.HasPrefix(w.line, string(got)) {
						t.Fatalf("read %d: line = %q, want a prefix of %q", i, got, w.line)
					}
					continue
				}
				if string(got) != w.line {
					t.Fatalf("read %d: line = %q, want %q", i, got, w.line)
				}
			}
		})
	}
}

func TestLastLines(t *testing.T) {
	if got := lastLines("a\n\nb\nc\n", 2); got != "b | c" {
		t.Errorf("lastLines = %q", got)
	}
}

// TestReadLineAllocs checks that a line much longer than the read buffer
// costs at most about twice its size in allocations: its pieces, then the
// line. Growing one slice by append cost about five times its size.
func TestReadLineAllocs(t *testing.T) {
	const size = 8 << 20
	in := strings.Repeat("x", size) + "\n"
	r := bufio.NewReaderSize(strings.NewReader(in), 64<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line, err := readLine(r, MaxLineSize)
	runtime.ReadMemStats(&after)
	if err != nil || len(line) != size || cap(line) > size+WrapTail {
		t.Fatalf("len %d cap %d, err %v", len(line), cap(line), err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 5*size/2 {
		t.Fatalf("reading a %d-byte line allocated %d bytes, want at most %d", size, got, 5*size/2)
	}
}

// TestWrap: a long line is wrapped in its own buffer, without a copy; a
// short one, without room, is not.
func TestWrap(t *testing.T) {
	long := `{"type":"user","x":"` + strings.Repeat("y", 100<<10) + `"}`
	r := bufio.NewReaderSize(strings.NewReader(long+"\n{\"type\":\"a\"}\n"), 64<<10)
	for i, want := range []bool{true, false} {
		buf, off, err := readLineRoom(r, MaxLineSize)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ParseLine(buf[off:])
		if err != nil {
			t.Fatal(err)
		}
		l.buf, l.off = buf, off
		if off == 0 {
			l.buf = nil // as dispatch does: no room
		}
		got, ok := l.Wrap([]byte(`{"m":`), []byte(`}`))
		if ok != want {
			t.Fatalf("line %d: Wrap ok = %v", i, ok)
		}
		if !ok {
			continue
		}
		if string(got) != `{"m":`+long+`}` {
			t.Fatalf("wrapped %.40q…", got)
		}
		if &got[5] != &l.Raw[0] {
			t.Fatal("the line was copied")
		}
	}
}
