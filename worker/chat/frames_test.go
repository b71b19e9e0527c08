package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
)

// frame is a decoded server frame with its bytes.
type frame struct {
	raw  []byte
	Type string            `json:"type"`
	Seq  uint64            `json:"seq"`
	Raw  json.RawMessage   `json:"message"` // sdk-message: the CLI line; error: text
	HTML map[string]string `json:"html"`
	// other frames
	State     string          `json:"state"`
	Stage     string          `json:"stage"`
	Last      *string         `json:"last"`
	Count     int             `json:"count"`
	RequestID string          `json:"requestId"`
	ToolName  string          `json:"toolName"`
	Input     json.RawMessage `json:"input"`
	Behavior  string          `json:"behavior"`
	Code      string          `json:"code"`
	ExitCode  int             `json:"exitCode"`

	Message struct { // sdk-message
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		UUID    string `json:"uuid"`
	} `json:"-"`
	Text string `json:"-"` // error
}

func decode(t testing.TB, b []byte) frame {
	t.Helper()
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("bad frame %s: %v", b, err)
	}
	switch f.Type {
	case "sdk-message":
		if err := json.Unmarshal(f.Raw, &f.Message); err != nil {
			t.Fatalf("bad sdk-message %s: %v", b, err)
		}
	case "error":
		_ = json.Unmarshal(f.Raw, &f.Text)
	}
	f.raw = b
	return f
}

// stored reports whether f is an sdk-message of the log.
func (f frame) stored() bool { return f.Type == "sdk-message" && f.Message.Type != "stream_event" }

// reader collects a stream: the replay, then live frames on demand.
type reader struct {
	t      *testing.T
	st     *hub.Stream
	frames []frame
}

func attach(t *testing.T, rt *Runtime, after string) *reader {
	t.Helper()
	st, err := rt.Attach(t.Context(), after)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return replay(t, st)
}

func replay(t *testing.T, st *hub.Stream) *reader {
	t.Helper()
	r := &reader{t: t, st: st}
	err := st.Replay(func(f hub.Frame) error {
		r.frames = append(r.frames, decode(t, f.Data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// until reads live frames until cond is true for one of them.
func (r *reader) until(cond func(frame) bool) frame {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for {
		f, err := r.st.Sub.Recv(ctx)
		switch {
		case errors.Is(err, hub.ErrDone):
			r.t.Fatalf("subscription ended (kicked=%v)", r.st.Sub.Kicked())
		case err != nil:
			r.t.Fatalf("no matching frame within %v; got %d frames: %s", waitFor, len(r.frames), kinds(r.frames))
		}
		fr := decode(r.t, f.Data)
		r.frames = append(r.frames, fr)
		if cond(fr) {
			return fr
		}
	}
}

func isResult(f frame) bool { return f.Type == "sdk-message" && f.Message.Type == "result" }

func isType(typ string) func(frame) bool { return func(f frame) bool { return f.Type == typ } }

// storedFrames returns the frames of the log, in order.
func storedFrames(t *testing.T, st *persist.Store) []persist.Message {
	t.Helper()
	msgs, err := st.MessagesAfter("w1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// storedOf returns the stored sdk-message frames among fs.
func storedOf(fs []frame) [][]byte {
	var out [][]byte
	for _, f := range fs {
		if f.stored() {
			out = append(out, f.raw)
		}
	}
	return out
}

func sameFrames(t *testing.T, got [][]byte, want []persist.Message) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d stored frames, the log has %d", len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i].Data) {
			t.Fatalf("frame %d differs from the log:\n got %s\nwant %s", i, got[i], want[i].Data)
		}
	}
}

// writeScript writes a fakeclaude script (one stdout line per element).
func writeScript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
