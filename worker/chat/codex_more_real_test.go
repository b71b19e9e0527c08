package chat

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// TestCodexChatSteer: a message sent while a Codex turn runs joins that
// turn (turn/steer): one result, which answers it.
func TestCodexChatSteer(t *testing.T) {
	s := newCodexSetup(t)
	s.api.SlowDelay = time.Hour // the first reply stops after its first chunk
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "be slow")
	a.until(func(f frame) bool { return strings.Contains(string(f.raw), "slow chunk 00") })
	send(t, h, "steer: go on")
	res := a.until(isResult)
	if sub, text := resultOf(t, res); sub != "success" || !strings.HasPrefix(text, "Echo: steer: go on") {
		t.Fatalf("steered turn %s", res.raw)
	}
	results := 0
	for _, f := range storedOf(a.frames) {
		if strings.Contains(string(f), `"type":"result"`) {
			results++
		}
	}
	if results != 1 {
		t.Fatalf("%d results: the steer began a turn of its own", results)
	}
}

// TestCodexChatAttachments: an image goes to Codex as an image input and a
// text file in the message's text; the stored message keeps references.
func TestCodexChatAttachments(t *testing.T) {
	s := newCodexSetup(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	png, files := testFiles(t)
	if err := h.rt.SendUserFiles(t.Context(), "look at these", "", files); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	reqs := s.api.ResponseRequests()
	last := reqs[len(reqs)-1]
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	if imgs := last.Images(); len(imgs) != 1 || imgs[0] != want {
		t.Fatalf("images sent: %d, want the png", len(imgs))
	}
	if p := last.Prompt(); !strings.Contains(p, `<file name="notes.txt">`) || !strings.Contains(p, "the secret word is kiwi") {
		t.Fatalf("the text file is not in the prompt: %q", p)
	}
	user := storedOf(a.frames)[0]
	if strings.Contains(string(user), base64.StdEncoding.EncodeToString(png)) || !strings.Contains(string(user), "red.png") {
		t.Fatalf("stored user message %s", user)
	}
}

// TestCodexChatUsageRecords: each Codex turn is a usage record of its
// model, with the fake API's token counts (100 in, 20 of them cached, 10
// out per request).
func TestCodexChatUsageRecords(t *testing.T) {
	s := newCodexSetup(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "first")
	a.until(isResult)
	send(t, h, "second")
	a.until(isResult)
	rows, _ := rollup(t, h.store)
	var turns, in, cached, out int64
	for _, r := range rows {
		turns += r.Turns
		in += r.InputTokens
		cached += r.CacheReadTokens
		out += r.OutputTokens
	}
	if turns != 2 || in != 160 || cached != 40 || out != 20 {
		t.Fatalf("usage rows %+v: %d turns, %d in, %d cached, %d out; want 2, 160, 40, 20", rows, turns, in, cached, out)
	}
}
