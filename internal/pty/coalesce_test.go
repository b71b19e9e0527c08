package pty

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/agentdesk/agentdesk/internal/hub"
)

func out(off int64, s string) hub.Frame {
	b := make([]byte, headerLen+len(s))
	binary.BigEndian.PutUint64(b, uint64(off))
	copy(b[headerLen:], s)
	return hub.Frame{Binary: true, Data: b}
}

func text(s string) hub.Frame { return hub.Frame{Data: []byte(s)} }

// describe renders frames as "off:bytes" or "text" for comparison.
func describe(fs []hub.Frame) string {
	var b bytes.Buffer
	for _, f := range fs {
		if f.Binary {
			fmt.Fprintf(&b, "[%d:%s]", binary.BigEndian.Uint64(f.Data), f.Data[headerLen:])
		} else {
			fmt.Fprintf(&b, "[%s]", f.Data)
		}
	}
	return b.String()
}

func TestCoalesce(t *testing.T) {
	big := string(bytes.Repeat([]byte("b"), maxJoined-2))
	cases := []struct {
		name string
		in   []hub.Frame
		want string
	}{
		{"one frame", []hub.Frame{out(0, "ab")}, "[0:ab]"},
		{"contiguous run", []hub.Frame{out(0, "ab"), out(2, "cd"), out(4, "e")}, "[0:abcde]"},
		{"gap starts a new run", []hub.Frame{out(0, "ab"), out(5, "cd"), out(7, "e")}, "[0:ab][5:cde]"},
		{"text frame splits runs and keeps its place",
			[]hub.Frame{out(0, "a"), out(1, "b"), text(`{"type":"exit"}`), out(2, "c"), out(3, "d")},
			`[0:ab][{"type":"exit"}][2:cd]`},
		{"size bound", []hub.Frame{out(0, "aa"), out(2, big), out(int64(len(big)+2), "c")}, "[0:aa" + big + "][" + fmt.Sprint(len(big)+2) + ":c]"},
		{"text only", []hub.Frame{text("x"), text("y")}, "[x][y]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(coalesceAll(tc.in)); got != tc.want {
				t.Fatalf("Coalesce(%s)\n got %s\nwant %s", describe(tc.in), got, tc.want)
			}
		})
	}
}

// TestCoalesceLeavesFramesIntact checks that joining never writes into a
// frame's bytes: the hub hands the same bytes to every subscriber.
func TestCoalesceLeavesFramesIntact(t *testing.T) {
	a, b := out(0, "ab"), out(2, "cd")
	keepA, keepB := bytes.Clone(a.Data), bytes.Clone(b.Data)
	var buf []byte
	for range 3 { // buf reused between calls
		got, n, nb := Coalesce([]hub.Frame{a, b}, buf)
		buf = nb
		if n != 2 || describe([]hub.Frame{got}) != "[0:abcd]" {
			t.Fatalf("got %s for %d frames", describe([]hub.Frame{got}), n)
		}
	}
	if !bytes.Equal(a.Data, keepA) || !bytes.Equal(b.Data, keepB) {
		t.Fatal("a source frame was modified")
	}
}

func BenchmarkCoalesce100(b *testing.B) {
	frames := make([]hub.Frame, 100)
	for i := range frames {
		frames[i] = out(int64(i*2048), string(bytes.Repeat([]byte("x"), 2048)))
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for rest := frames; len(rest) > 0; {
			var n int
			_, n, buf = Coalesce(rest, buf)
			rest = rest[n:]
		}
	}
}

// coalesceAll runs Coalesce over a batch the way a socket writer does,
// copying each frame out before buf is reused.
func coalesceAll(frames []hub.Frame) []hub.Frame {
	var out []hub.Frame
	var buf []byte
	for len(frames) > 0 {
		f, n, nb := Coalesce(frames, buf)
		buf = nb
		out = append(out, hub.Frame{Binary: f.Binary, Data: bytes.Clone(f.Data)})
		frames = frames[n:]
	}
	return out
}
