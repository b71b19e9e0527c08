package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// apiBlock is a content block as the fake Messages API received it.
type apiBlock struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Title  string `json:"title"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// apiBlocks lists the content blocks of every user message of a request.
func apiBlocks(t *testing.T, r fakeapi.Request) []apiBlock {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.RawBody, &body); err != nil {
		t.Fatal(err)
	}
	var out []apiBlock
	for _, m := range body.Messages {
		var bs []apiBlock
		if m.Role == "user" && json.Unmarshal(m.Content, &bs) == nil {
			out = append(out, bs...)
		}
	}
	return out
}

// findImage returns the image blocks and text documents a request carried.
func findImage(blocks []apiBlock) (images []string, texts map[string]string) {
	texts = map[string]string{}
	for _, b := range blocks {
		switch {
		case b.Type == "image" && b.Source != nil && b.Source.Type == "base64":
			images = append(images, b.Source.MediaType+" "+b.Source.Data)
		case b.Type == "document" && b.Source != nil && b.Source.Type == "text":
			texts[b.Title] = b.Source.Data
		}
	}
	return images, texts
}

func testFiles(t *testing.T) (png []byte, files []attachment.File) {
	t.Helper()
	png, err := os.ReadFile("testdata/attach/red.png")
	if err != nil {
		t.Fatal(err)
	}
	files, err = attachment.Decode([]attachment.Input{
		{Name: "red.png", MediaType: "image/png", Data: base64.StdEncoding.EncodeToString(png)},
		{Name: "notes.txt", MediaType: "text/plain", Data: base64.StdEncoding.EncodeToString([]byte("the secret word is kiwi\n"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	return png, files
}

// TestRealAttachmentsAndResume: the real CLI gets an image and a text
// file as content blocks and passes them to the API as they are; the
// stored message holds references, not the bytes, which Attachment
// serves; and after a restart the resumed conversation still sends the
// image (the CLI reads it back from its session file).
func TestRealAttachmentsAndResume(t *testing.T) {
	s := newReal(t)
	h1 := s.harness(t, harnessOptions{})
	a := attach(t, h1.rt, "")
	png, files := testFiles(t)
	if err := h1.rt.SendUserFiles(t.Context(), "look at these", "", files); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	want := "image/png " + base64.StdEncoding.EncodeToString(png)
	images, texts := findImage(apiBlocks(t, s.lastRequest(t)))
	if len(images) != 1 || images[0] != want || texts["notes.txt"] != "the secret word is kiwi\n" {
		t.Fatalf("the API got images %d %.60q, texts %q", len(images), images, texts)
	}
	if req := s.lastRequest(t); !strings.Contains(req.LastUserText(), "look at these") {
		t.Errorf("the API got the text %q", req.LastUserText())
	}

	// Stored: references only; the bytes come back by id.
	var user struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Attachments []attachmentRef `json:"attachments"`
	}
	for _, m := range storedFrames(t, h1.store) {
		if bytes.Contains(m.Data, []byte(base64.StdEncoding.EncodeToString(png)[:40])) {
			t.Fatalf("stored message %d holds the image's base64", m.Seq)
		}
		var f struct {
			Message json.RawMessage `json:"message"`
		}
		json.Unmarshal(m.Data, &f)
		if bytes.Contains(f.Message, []byte(`"attachments"`)) {
			json.Unmarshal(f.Message, &user)
		}
	}
	if len(user.Attachments) != 2 || user.Message.Content != "look at these" {
		t.Fatalf("stored user message: %+v", user)
	}
	ref := user.Attachments[0]
	if ref.Name != "red.png" || ref.MediaType != "image/png" || ref.Size != len(png) ||
		ref.URL != "/api/sessions/s1/workers/w1/attachments/"+ref.ID {
		t.Errorf("reference %+v", ref)
	}
	got, err := h1.rt.Attachment(ref.ID)
	if err != nil || !bytes.Equal(got.Data, png) || got.MediaType != "image/png" || got.Name != "red.png" {
		t.Fatalf("Attachment(%s): %v, %+v", ref.ID, err, got.Name)
	}
	if txt, _ := h1.rt.Attachment(user.Attachments[1].ID); string(txt.Data) != "the secret word is kiwi\n" || txt.MediaType != "text/plain" {
		t.Errorf("text attachment: %q %s", txt.Data, txt.MediaType)
	}
	h1.stop()

	// A restart: a new runtime on the same store resumes the conversation.
	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, started: true, restored: true})
	b := attach(t, h2.rt, "")
	send(t, h2, "what was in the image")
	b.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "what was in the image") })
	req := s.lastRequest(t)
	images, texts = findImage(apiBlocks(t, req))
	if req.SessionID() != h1.conv || len(images) != 1 || images[0] != want || texts["notes.txt"] == "" {
		t.Fatalf("resumed request: session %q, images %d, texts %q", req.SessionID(), len(images), texts)
	}
	if got, err := h2.rt.Attachment(ref.ID); err != nil || !bytes.Equal(got.Data, png) {
		t.Errorf("attachment after the restart: %v", err)
	}
}
