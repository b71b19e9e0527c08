package chat

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestRealQueuedAttachmentsSurviveRestart: an image and a text file sent
// while a turn runs wait in the queue (nothing stored as sent, nothing
// written to the CLI); the server restarts in the middle of the turn; the
// new worker delivers the message once, and the real CLI passes the
// image and the text document to the API as a direct send's. The queued
// copies of the files are gone after the delivery.
func TestRealQueuedAttachmentsSurviveRestart(t *testing.T) {
	s := newReal(t)
	s.api.SlowChunks, s.api.SlowDelay = 2000, 50*time.Millisecond // ends only by the stop
	h1 := s.harness(t, harnessOptions{})
	a1 := attach(t, h1.rt, "")
	send(t, h1, "be slow please")
	a1.until(func(f frame) bool { return f.Type == "sdk-message" && f.Message.Type == "stream_event" })
	png, files := testFiles(t)
	if err := h1.rt.SendUserFiles(t.Context(), "look queued", "", files); err != nil {
		t.Fatal(err)
	}
	a1.until(func(f frame) bool { return f.Type == "queue" && len(queueOf(t, f)) == 1 })
	items, err := h1.rt.Queue()
	if err != nil || len(items) != 1 || len(items[0].Attachments) != 2 || items[0].Attachments[0].Name != "red.png" {
		t.Fatalf("queue %+v %v", items, err)
	}
	if got := strings.Join(storedUsers(t, h1), ","); got != "be slow please" {
		t.Fatalf("a queued message was stored as sent: %q", got)
	}
	if n := len(s.api.MessageRequests()); n != 1 {
		t.Fatalf("%d requests reached the API mid-turn, want 1", n)
	}
	h1.stop()

	h1.mu.Lock()
	started := h1.started > 0
	h1.mu.Unlock()
	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, started: started, restored: true})
	a2 := attach(t, h2.rt, "")
	a2.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "look queued") })

	want := "image/png " + base64.StdEncoding.EncodeToString(png)
	delivered := 0
	for _, r := range s.api.MessageRequests() {
		if tools, _ := r.Body["tools"].([]any); len(tools) > 0 && strings.Contains(r.LastUserText(), "look queued") {
			delivered++
			images, texts := findImage(apiBlocks(t, r))
			if len(images) != 1 || images[0] != want || texts["notes.txt"] != "the secret word is kiwi\n" {
				t.Errorf("the API got images %d %.60q, texts %q", len(images), images, texts)
			}
		}
	}
	if delivered != 1 {
		t.Errorf("the queued message reached the API %d times, want once", delivered)
	}
	if got := strings.Join(storedUsers(t, h2), ","); got != "be slow please,look queued" {
		t.Errorf("stored user messages %q", got)
	}
	if items, err := h2.rt.Queue(); err != nil || len(items) != 0 {
		t.Errorf("queue after delivery: %v %v", items, err)
	}
	if ids, err := h2.store.QueueFileIDs(h2.rt.q.sid); err != nil || len(ids) != 0 {
		t.Errorf("queued files after delivery: %v %v", ids, err)
	}
}

// TestQueuedFilesRemoved: a queued message's files are served while it
// waits, and removing it drops them.
func TestQueuedFilesRemoved(t *testing.T) {
	h, clock := queueHarness(t)
	later := clock.Now().Add(time.Hour) // holds back the items behind it
	if _, err := h.rt.Enqueue(t.Context(), "hold", &later); err != nil {
		t.Fatal(err)
	}
	_, files := testFiles(t)
	if err := h.rt.SendUserFiles(t.Context(), "with files", wire.WhenQueue, files); err != nil {
		t.Fatal(err)
	}
	items, err := h.rt.Queue()
	if err != nil || len(items) != 2 || len(items[1].Attachments) != 2 {
		t.Fatalf("queue %+v %v", items, err)
	}
	got, err := h.rt.Attachment(items[1].Attachments[1].ID)
	if err != nil || string(got.Data) != "the secret word is kiwi\n" || got.Name != "notes.txt" {
		t.Fatalf("queued attachment: %q %v", got.Data, err)
	}
	if err := h.rt.RemoveQueued(t.Context(), items[1].ID); err != nil {
		t.Fatal(err)
	}
	if ids, err := h.store.QueueFileIDs(h.rt.q.sid); err != nil || len(ids) != 0 {
		t.Errorf("files of a removed item: %v %v", ids, err)
	}
	if _, err := h.rt.Attachment(items[1].Attachments[0].ID); err == nil {
		t.Error("a removed item's file is still served")
	}
}

// TestQueuedFilesBudget: a message whose files would take the queue's
// files over their budget is refused (too_large) and stores nothing, files
// included.
func TestQueuedFilesBudget(t *testing.T) {
	h, clock := queueHarness(t)
	png, files := testFiles(t)
	old := maxQueueFiles
	maxQueueFiles = len(png) + len(files[1].Data) + 10 // one such message fits, not two
	t.Cleanup(func() { maxQueueFiles = old })
	later := clock.Now().Add(time.Hour)
	if _, err := h.rt.EnqueueFiles(t.Context(), "first", &later, files); err != nil {
		t.Fatal(err)
	}
	_, err := h.rt.EnqueueFiles(t.Context(), "second", nil, files)
	var ce *wire.CodeError
	if !errors.As(err, &ce) || ce.Code != wire.CodeTooLarge {
		t.Fatalf("over the budget: %v, want too_large", err)
	}
	if got := mustQueue(t, h); got != "first" {
		t.Errorf("queue %q", got)
	}
	if ids, err := h.store.QueueFileIDs(h.rt.q.sid); err != nil || len(ids) != 2 {
		t.Errorf("stored files %v %v, want the first message's 2", ids, err)
	}
}
