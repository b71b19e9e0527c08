package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// recordedConv is the conversation of testdata/attach/session.jsonl, the
// session file the real CLI wrote for a message with an image, a PDF and
// a text document (see testdata/attach/README.md).
const recordedConv = "11111111-2222-4333-8444-555555555555"

// TestImportExternalisesAttachments: after a switch from the terminal
// view, the import stores the image and documents of the CLI's session
// file apart, with references in the message, like a message sent with
// attachments; the bytes come back by id.
func TestImportExternalisesAttachments(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	data, err := os.ReadFile("testdata/attach/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	writeSessionFile(t, claude.SessionFilePath(cfg, cwd, recordedConv), strings.Split(strings.TrimSpace(string(data)), "\n"))
	png, err := os.ReadFile("testdata/attach/red.png")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{conv: recordedConv, started: true, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	waitImported(t, h)
	if err := <-h.store.Barrier(); err != nil { // the import's batches are queued: wait for their commit
		t.Fatal(err)
	}
	var user importLine
	var refs []attachmentRef
	for _, m := range storedFrames(t, h.store) {
		if bytes.Contains(m.Data, []byte(base64.StdEncoding.EncodeToString(png)[:40])) {
			t.Fatalf("stored message %d holds the image's base64", m.Seq)
		}
		var f struct {
			Message struct {
				importLine
				Attachments []attachmentRef `json:"attachments"`
			} `json:"message"`
		}
		if err := json.Unmarshal(m.Data, &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Message.Attachments) > 0 {
			user, refs = f.Message.importLine, f.Message.Attachments
		}
	}
	if len(refs) != 3 || refs[0].MediaType != "image/png" || refs[0].Name != "image-1.png" ||
		refs[1].Name != "doc.pdf" || refs[2].Name != "notes.txt" || refs[2].MediaType != "text/plain" {
		t.Fatalf("references: %+v", refs)
	}
	if c := string(user.Message.Content); !strings.Contains(c, "look at these") || strings.Contains(c, `"image"`) || strings.Contains(c, `"document"`) {
		t.Errorf("content kept: %s", c)
	}
	got, err := h.rt.Attachment(refs[0].ID)
	if err != nil || !bytes.Equal(got.Data, png) {
		t.Fatalf("imported image: %v (%d bytes)", err, len(got.Data))
	}
	if txt, _ := h.rt.Attachment(refs[2].ID); string(txt.Data) != "hello from notes.txt\n" {
		t.Errorf("imported text: %q", txt.Data)
	}
}
