package codex

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

// recordEnv, set to 1, makes the real-CLI tests write their transcripts to
// testdata/recordings (the contract the translation tests replay).
const recordEnv = "AGENTDESK_CODEX_RECORD"

// harness runs the real CLI against a fake Responses API, in a throwaway
// CODEX_HOME, never the machine's ~/.codex.
type harness struct {
	t    testing.TB
	bin  string
	api  *fakeopenai.Server
	work string
	env  []string
	rec  *recorder
}

func newHarness(t *testing.T, name string) *harness { return newHarnessNamed(t, name) }

// newHarnessTB is a harness for a benchmark: it records nothing.
func newHarnessTB(b *testing.B) *harness { return newHarnessNamed(b, "") }

func newHarnessNamed(t testing.TB, name string) *harness {
	t.Helper()
	path := fakeopenai.RequireCodex(t)
	api := fakeopenai.New(t)
	dir := t.TempDir()
	h := &harness{t: t, bin: path, api: api, work: filepath.Join(dir, "work"), env: api.CodexEnv(t, dir)}
	if err := os.MkdirAll(h.work, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Getenv(recordEnv) == "1" && name != "" {
		h.rec = newRecorder(t, filepath.Join("testdata", "recordings", name+".jsonl"))
	}
	return h
}

// open starts a Session; the test's cleanup closes it.
func (h *harness) open(o SessionOptions) (*Session, *collector) { return h.openTB(h.t, o) }

func (h *harness) openTB(_ testing.TB, o SessionOptions) (*Session, *collector) {
	h.t.Helper()
	o.Process.Path = h.bin
	o.Process.Env, o.Process.Dir, o.Process.Grace = h.env, h.work, 3*time.Second
	if h.rec != nil {
		o.Process.Tap = h.rec.tap
	}
	ctx, cancel := context.WithTimeout(h.t.Context(), time.Minute)
	defer cancel()
	s, err := Open(ctx, nil, o)
	if err != nil {
		h.t.Fatal(err)
	}
	c := collect(s)
	h.t.Cleanup(func() {
		s.Close(context.Background())
		<-c.done
	})
	return s, c
}

// collector keeps everything a Session passed on, for tests to wait on.
type collector struct {
	mu      sync.Mutex
	outs    []Out
	next    int // the first Out wait has not looked at
	changed chan struct{}
	done    chan struct{}
}

func collect(s *Session) *collector {
	c := &collector{changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for b := range s.Out() {
			c.mu.Lock()
			c.outs = append(c.outs, b...)
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		}
	}()
	return c
}

// wait returns the first Out after those seen by earlier waits that
// matches; it fails the test when the Session ends first (or after a
// minute, the guard against a hang).
func (c *collector) wait(t *testing.T, what string, match func(Out) bool) Out {
	t.Helper()
	return c.waitTB(t, what, match)
}

func (c *collector) waitTB(t testing.TB, what string, match func(Out) bool) Out {
	t.Helper()
	guard := time.NewTimer(time.Minute)
	defer guard.Stop()
	for {
		c.mu.Lock()
		for ; c.next < len(c.outs); c.next++ {
			if o := c.outs[c.next]; match(o) {
				c.next++
				c.mu.Unlock()
				return o
			}
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-c.done:
			c.mu.Lock()
			left := c.next < len(c.outs)
			c.mu.Unlock()
			if !left {
				t.Fatalf("waiting for %s: the session ended", what)
			}
		case <-guard.C:
			t.Fatalf("waiting for %s: nothing after a minute", what)
		}
	}
}

// all returns every Out so far.
func (c *collector) all() []Out {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Out(nil), c.outs...)
}

// msg decodes an OutMessage's message for assertions.
type msg struct {
	Type          string             `json:"type"`
	Subtype       string             `json:"subtype"`
	IsError       bool               `json:"is_error"`
	Result        string             `json:"result"`
	Aborted       bool               `json:"aborted"`
	Error         string             `json:"error"`
	Message       body               `json:"message"`
	Usage         map[string]float64 `json:"usage"`
	ToolUseResult map[string]any     `json:"tool_use_result"`
	// PermissionDenials are a result's declined calls.
	PermissionDenials []map[string]any `json:"permission_denials"`
}

// body is an assistant or user message's body; a system message's
// "message" (a text) reads as empty.
type body struct {
	ID      string  `json:"id"`
	Content []block `json:"content"`
}

func (b *body) UnmarshalJSON(raw []byte) error {
	type plain body
	if len(raw) > 0 && raw[0] == '{' {
		return json.Unmarshal(raw, (*plain)(b))
	}
	return nil
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   string          `json:"content"`
	IsError   bool            `json:"is_error"`
}

func decode(t *testing.T, o Out) msg {
	t.Helper()
	var m msg
	if err := json.Unmarshal(o.Raw, &m); err != nil {
		t.Fatalf("decode %s: %v", o.Raw, err)
	}
	return m
}

func isType(typ string) func(Out) bool {
	return func(o Out) bool { return o.Kind == OutMessage && o.Type == typ }
}

func isResult(o Out) bool { return isType("result")(o) }

func isRequest(o Out) bool { return o.Kind == OutRequest }

// hasBlock matches a message with a block of type typ.
func hasBlock(t *testing.T, typ string) func(Out) bool {
	return func(o Out) bool {
		if o.Kind != OutMessage {
			return false
		}
		for _, b := range decode(t, o).Message.Content {
			if b.Type == typ {
				return true
			}
		}
		return false
	}
}

// recorder writes a transcript: {"t","dir","msg"} lines, msg the line as
// JSON (stderr lines as strings).
type recorder struct {
	mu    sync.Mutex
	f     *os.File
	start time.Time
}

func newRecorder(t testing.TB, path string) *recorder {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &recorder{f: f, start: time.Now()}
}

func (r *recorder) tap(dir string, line []byte) {
	m := json.RawMessage(append([]byte(nil), line...))
	if dir == "stderr" || !json.Valid(line) {
		m, _ = json.Marshal(string(line))
	}
	b, _ := json.Marshal(map[string]any{"t": time.Since(r.start).Milliseconds(), "dir": dir, "msg": m})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Write(append(b, '\n'))
}

// note writes a test's own line to the transcript (what it did).
func (h *harness) note(what string) {
	if h.rec != nil {
		h.rec.tap("note", []byte(`"`+what+`"`))
	}
}
