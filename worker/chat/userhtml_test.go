package chat

import (
	"strings"
	"testing"
)

// TestUserMessageHTML checks that a message typed in agentdesk is stored
// with its markdown rendered by the same sanitizer as the assistant's.
func TestUserMessageHTML(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "see **this**\n\n```go\nx := 1\n```\n\n<script>alert(1)</script>")
	a.until(isResult)
	msgs := storedFrames(t, h.store)
	if len(msgs) == 0 {
		t.Fatal("nothing stored")
	}
	f := decode(t, msgs[0].Data)
	if f.Message.Type != "user" {
		t.Fatalf("first stored message is %q", f.Message.Type)
	}
	html := f.HTML["0"]
	for _, want := range []string{"<strong>this</strong>", `<pre><code class="language-go">`} {
		if !strings.Contains(html, want) {
			t.Errorf("user html lacks %q: %q", want, html)
		}
	}
	if strings.Contains(html, "<script") {
		t.Errorf("user html keeps raw HTML: %q", html)
	}
	if live := decode(t, storedOf(a.frames)[0]).HTML["0"]; live != html {
		t.Errorf("the live frame's html %q differs from the stored %q", live, html)
	}
}
