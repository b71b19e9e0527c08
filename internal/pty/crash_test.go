package pty_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/persist"
)

// crashStore is a store that stops writing once crashed is set, like a
// server killed before its buffered output and its last words reach disk.
type crashStore struct {
	*persist.Store
	crashed atomic.Bool
}

func (c *crashStore) AppendOutput(id string, off int64, data []byte) <-chan error {
	if c.crashed.Load() {
		ch := make(chan error, 1)
		ch <- nil
		return ch
	}
	return c.Store.AppendOutput(id, off, data)
}

func (c *crashStore) ReserveOutput(id string, upTo int64) <-chan error {
	if c.crashed.Load() {
		ch := make(chan error, 1)
		ch <- nil
		return ch
	}
	return c.Store.ReserveOutput(id, upTo)
}

// TestCrashNeverReusesOffsets: bytes published live but lost in a crash
// keep their offsets; the next Log continues past them, and a replay says
// where output resumes.
func TestCrashNeverReusesOffsets(t *testing.T) {
	s := openStore(t, nil)
	cs := &crashStore{Store: s}
	before, err := pty.OpenLog(cs, "w1")
	if err != nil {
		t.Fatal(err)
	}
	writeChunks(t, before, []byte("stored "), 100)
	if err := before.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	cs.crashed.Store(true)
	writeChunks(t, before, []byte("seen live, then lost"), 100)
	seen := before.End()
	before.Close()

	after := openLog(t, s, "w1")
	if after.End() < seen {
		t.Fatalf("new log starts at %d, before offset %d that clients saw", after.End(), seen)
	}
	writeChunks(t, after, []byte("next"), 100)
	if err := after.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	st := attach(t, after, "")
	var out []byte
	var truncatedAt int64 = -1
	next := int64(0)
	err = st.Replay(func(f hub.Frame) error {
		if f.Binary {
			off := int64(binary.BigEndian.Uint64(f.Data))
			if off < next {
				t.Fatalf("frame at %d goes back before %d", off, next)
			}
			out = append(out, f.Data[8:]...)
			next = off + int64(len(f.Data)-8)
			return nil
		}
		var m struct {
			Type   string
			Offset int64
		}
		if err := json.Unmarshal(f.Data, &m); err != nil {
			return err
		}
		if m.Type == "truncated" {
			truncatedAt, next = m.Offset, m.Offset
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "stored next" || truncatedAt < seen {
		t.Fatalf("replay %q, resumes at %d (clients saw up to %d)", out, truncatedAt, seen)
	}
}

// crashRun runs script on a real PTY under a Log that crashes: the Log's
// first reservation is stored, then its output is stored too when keep is
// set, and at the end nothing more reaches the store, like a server killed
// right after. It returns the output the PTY produced.
func crashRun(t *testing.T, s *persist.Store, keep bool, script string) []byte {
	t.Helper()
	cs := &crashStore{Store: s}
	l, err := pty.OpenLog(cs, "w1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close() // crashed by then: its last words are lost
	// Once the barrier passes, the reservation OpenLog asked for is stored.
	if err := <-s.Barrier(); err != nil {
		t.Fatal(err)
	}
	cs.crashed.Store(!keep)
	st := attach(t, l, "")
	r := replay(t, st)
	from := r.histEnd
	p := start(t, l, "sh", "-c", script)
	waitDone(t, p)
	live(t, st, r, func(r *received) bool { return r.next == l.End() })
	if err := l.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	cs.crashed.Store(true)
	return r.out.Bytes()[r.out.Len()-int(l.End()-from):]
}

// printRun is a script printing 2 KB of one letter, through the PTY.
func printRun(letter byte) string {
	return fmt.Sprintf(`head -c 2048 /dev/zero | tr '\0' %c`, letter)
}

// TestCrashGapsKeepScrollback: each crash leaves a reserved hole of about
// a MiB. Ten crashes of a terminal printing 2 KB each span more than the
// 8 MiB cap, but the holes take no room: a fresh replay returns every
// stored byte, with a truncated frame across each hole (the last one ends
// where the Log opened after the last crash starts).
func TestCrashGapsKeepScrollback(t *testing.T) {
	s := openStore(t, nil) // the default cap, 8 MiB
	var want []byte
	for i := range 10 {
		want = append(want, crashRun(t, s, true, printRun(byte('A'+i)))...)
	}
	if len(want) != 10*2048 {
		t.Fatalf("the runs printed %d bytes, want %d", len(want), 10*2048)
	}
	if _, end, _ := s.OutputRange("w1"); end <= persist.DefaultOutputCap {
		t.Fatalf("the output spans %d bytes, not past the cap: the test proves nothing", end)
	}
	l := openLog(t, s, "w1")
	for _, cursor := range []string{"", "0"} {
		r := replay(t, attach(t, l, cursor))
		if !bytes.Equal(r.out.Bytes(), want) || r.holes != 10 {
			t.Fatalf("cursor %q: replay of %d bytes across %d holes, want %d across 10 (%v)", cursor, r.out.Len(), r.holes, len(want), r.ctrl)
		}
	}
}

// TestReplayAfterLeadingCrashGap: the first run crashed before any of its
// output was stored, so the stored output starts past a hole. A tab with
// no cursor or with offset 0 gets a truncated frame at the hole's end and
// then every stored byte, not a truncated frame to the end and nothing.
func TestReplayAfterLeadingCrashGap(t *testing.T) {
	s := openStore(t, nil)
	lost := crashRun(t, s, false, "printf 'shown live, never stored'")
	kept := crashRun(t, s, true, printRun('K'))
	l := openLog(t, s, "w1")
	for _, cursor := range []string{"", "0"} {
		r := replay(t, attach(t, l, cursor))
		trunc, _ := r.ctrl[0]["offset"].(float64)
		if !bytes.Equal(r.out.Bytes(), kept) || r.ctrl[0]["type"] != "truncated" || int64(trunc) < int64(len(lost)) {
			t.Fatalf("cursor %q: replay %q, frames %v; want %d bytes after a truncated frame past %d",
				cursor, tail(r.out.String()), r.ctrl, len(kept), len(lost))
		}
	}
}
