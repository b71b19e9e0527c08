package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// TestLargeMessages runs turns of the fake CLI that print large lines (a
// tool result, then an assistant text) through the whole pipeline and
// checks what the tabs get and what it cost. However large, a line must
// cost a small multiple of its size in allocations: reading it, bbolt's
// pages, and bbolt's copy of the transaction when the file outgrows its
// map. It used to be copied into the frame and into the log's record,
// rewritten with the messages before it on every commit, and its markdown
// rendered (many times its size). Measured on a second turn, once the
// database file has grown past its first sizes.
func TestLargeMessages(t *testing.T) {
	const size = 4 << 20
	h := newHarness(t, harnessOptions{env: []string{fmt.Sprintf("FAKECLAUDE_BIG=2x%d", size)}})
	sub, _ := h.rt.journal.hub.Subscribe(0)
	defer sub.Close()
	turn := func() (frames [][]byte, alloc uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := h.rt.SendUser(context.Background(), "big"); err != nil {
			t.Fatal(err)
		}
		for {
			f := recvFrame(t, sub)
			if len(f.Data) > size {
				frames = append(frames, f.Data)
			}
			if bytes.Contains(f.Data, []byte(`"subtype":"success"`)) {
				break
			}
		}
		runtime.ReadMemStats(&after)
		return frames, after.TotalAlloc - before.TotalAlloc
	}
	turn() // grows the database file
	frames, alloc := turn()
	if len(frames) != 2 {
		t.Fatalf("got %d large frames, want 2", len(frames))
	}
	for i, f := range frames {
		var fr struct {
			Message       json.RawMessage   `json:"message"`
			HTML          map[string]string `json:"html"`
			HTMLTruncated bool              `json:"htmlTruncated"`
		}
		if err := json.Unmarshal(f, &fr); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		text := i == 1 // the fake alternates: tool result, then text
		if fr.HTML != nil || fr.HTMLTruncated != text || !strings.Contains(string(fr.Message), "lazy dog") {
			t.Fatalf("frame %d: html %d blocks, htmlTruncated %v", i, len(fr.HTML), fr.HTMLTruncated)
		}
	}
	if limit := uint64(5 * 2 * size); alloc > limit {
		t.Fatalf("a turn of 2 lines of %d bytes allocated %d bytes, want at most %d", size, alloc, limit)
	}
	t.Logf("%.2f bytes allocated per byte of message", float64(alloc)/(2*size))
}

// recvFrame returns the next frame of sub, failing the test when the
// subscription ends or nothing comes within waitFor.
func recvFrame(t *testing.T, sub *hub.Sub) hub.Frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	f, err := sub.Recv(ctx)
	if err != nil {
		t.Fatalf("recv: %v (kicked %v)", err, sub.Kicked())
	}
	return f
}

// TestStreamTurnBounded: the stream events kept for a tab that attaches
// mid-message stop at maxTurnBytes (all of them were kept, however long the
// message), and are kept again from the next message.
func TestStreamTurnBounded(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	sub, _ := h.rt.journal.hub.Subscribe(0)
	defer sub.Close()
	delta := `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` +
		strings.Repeat("x", 64<<10) + `"}}}`
	stop := `{"type":"stream_event","event":{"type":"message_stop"}}`
	start := `{"type":"stream_event","event":{"type":"message_start","message":{"id":"m2"}}}`
	// One at a time, each received, so the subscriber keeps up and the
	// entry is applied when send returns.
	send := func(es ...entry) {
		for _, e := range es {
			msg := e.msg
			if err := h.rt.journal.produce([]entry{e}); err != nil {
				t.Fatal(err)
			}
			for !bytes.Contains(recvFrame(t, sub).Data, msg) {
			}
		}
	}
	attached := func() int {
		st, err := h.rt.Attach(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		n := 0
		err = st.Replay(func(f hub.Frame) error {
			if bytes.Contains(f.Data, []byte(`"stream_event"`)) {
				n += len(f.Data)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for range 2 * maxTurnBytes / len(delta) {
		send(entry{kind: kStream, msg: []byte(delta)})
	}
	if n := attached(); n > maxTurnBytes {
		t.Fatalf("an attaching tab gets %d bytes of stream events, want at most %d", n, maxTurnBytes)
	}
	send(entry{kind: kStream, msg: []byte(stop), endsMessage: true}, entry{kind: kStream, msg: []byte(start)})
	if n := attached(); n == 0 {
		t.Fatal("the next message's stream events were not kept")
	}
}

// TestMessagesPagedInBytes: a page of the REST history stops once it holds
// 8 MiB (with hasMore), instead of loading up to 5,000 messages of any
// size at once.
func TestMessagesPagedInBytes(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	const n, size = 3, 5 << 20
	var ids []string
	for i := range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		msg := []byte(`{"type":"user","uuid":"` + id + `","x":"` + strings.Repeat("x", size) + `"}`)
		if err := h.rt.journal.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "user"}}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for deadline := time.Now().Add(waitFor); h.rt.journal.published() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("published %d of %d messages", h.rt.journal.published(), n)
		}
	}
	page, more, err := h.rt.Messages("", 0)
	if err != nil || len(page) != 2 || !more {
		t.Fatalf("first page: %d messages, more %v, %v; want 2 and more", len(page), more, err)
	}
	page, more, err = h.rt.Messages(ids[1], 0)
	if err != nil || len(page) != 1 || more || !bytes.Contains(page[0], []byte(ids[2])) {
		t.Fatalf("second page: %d messages, more %v, %v; want the last one", len(page), more, err)
	}
	// Backwards the same bound holds, and hasMore still says what is left.
	page, more, err = h.rt.MessagesBefore("", "", 0)
	if err != nil || len(page) != 2 || !more || !bytes.Contains(page[1], []byte(ids[2])) {
		t.Fatalf("newest page: %d messages, more %v, %v; want the newest 2 and more", len(page), more, err)
	}
	page, more, err = h.rt.MessagesBefore(ids[1], "", 0)
	if err != nil || len(page) != 1 || more || !bytes.Contains(page[0], []byte(ids[0])) {
		t.Fatalf("page before %s: %d messages, more %v, %v; want the first one", ids[1], len(page), more, err)
	}
}
