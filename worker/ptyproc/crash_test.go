package ptyproc_test

import (
	"encoding/binary"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker/hub"
	"github.com/agentdesk/agentdesk/worker/ptyproc"
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
	before, err := ptyproc.OpenLog(cs, "w1")
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
