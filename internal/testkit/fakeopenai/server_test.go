package fakeopenai_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// reply is a decoded answer: its events and what they add up to.
type reply struct {
	status int
	events []string
	text   string           // the output_text deltas
	reason string           // the reasoning summary deltas
	calls  []map[string]any // function_call items, complete
	usage  map[string]any
	done   bool // response.completed came
}

func userMsg(text string, extra ...map[string]any) map[string]any {
	parts := []any{map[string]any{"type": "input_text", "text": text}}
	for _, e := range extra {
		parts = append(parts, e)
	}
	return map[string]any{"type": "message", "role": "user", "content": parts}
}

// envContext is the CLI's own first user message: never a prompt.
var envContext = userMsg("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>")

func post(t *testing.T, ctx context.Context, s *fakeopenai.Server, input ...any) (reply, error) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"model": "gpt-fake", "stream": true, "input": input})
	req, _ := http.NewRequestWithContext(ctx, "POST", s.BaseURL()+"/responses", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+fakeopenai.FakeKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		return r, nil
	}
	return r, readSSE(resp.Body, &r)
}

// readSSE decodes an event stream, checking that each data repeats its
// event name.
func readSSE(body io.Reader, r *reply) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		if n, ok := strings.CutPrefix(line, "event: "); ok {
			name = n
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type     string         `json:"type"`
			Delta    string         `json:"delta"`
			Item     map[string]any `json:"item"`
			Response map[string]any `json:"response"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Type != name {
			return errors.New("bad event: " + line)
		}
		r.events = append(r.events, ev.Type)
		switch ev.Type {
		case "response.output_text.delta":
			r.text += ev.Delta
		case "response.reasoning_summary_text.delta":
			r.reason += ev.Delta
		case "response.output_item.done":
			if ev.Item["type"] == "function_call" {
				r.calls = append(r.calls, ev.Item)
			}
		case "response.completed":
			r.usage, _ = ev.Response["usage"].(map[string]any)
			r.done = true
		}
	}
	return sc.Err()
}

func TestEchoCountsItemsAndImages(t *testing.T) {
	s := fakeopenai.New(t)
	img := map[string]any{"type": "input_image", "image_url": "data:image/png;base64,AAAA"}
	r, err := post(t, t.Context(), s, envContext, userMsg("hello there", img))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Echo: hello there (2 input items, 1 images)"; r.text != want || !r.done {
		t.Fatalf("text %q done %v, want %q", r.text, r.done, want)
	}
	if r.events[0] != "response.created" || r.usage["input_tokens"] != float64(100) {
		t.Fatalf("events %v usage %v", r.events, r.usage)
	}
	reqs := s.ResponseRequests()
	if len(reqs) != 1 || reqs[0].Reply != "echo" || reqs[0].Prompt() != "hello there" {
		t.Fatalf("log %+v", reqs)
	}
	if imgs := reqs[0].Images(); len(imgs) != 1 || imgs[0] != "data:image/png;base64,AAAA" {
		t.Fatalf("images %v", imgs)
	}
}

func TestBashCallAndItsOutput(t *testing.T) {
	s := fakeopenai.New(t)
	r, err := post(t, t.Context(), s, envContext, userMsg("please bash: echo hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 1 || r.calls[0]["name"] != "exec_command" || r.calls[0]["arguments"] != `{"cmd":"echo hi"}` {
		t.Fatalf("calls %v", r.calls)
	}
	out := map[string]any{"type": "function_call_output", "call_id": r.calls[0]["call_id"],
		"output": "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nhi\n"}
	r, err = post(t, t.Context(), s, envContext, userMsg("please bash: echo hi"), r.calls[0], out)
	if err != nil {
		t.Fatal(err)
	}
	if r.text != "Tool finished. Output: 'hi'" {
		t.Fatalf("text %q", r.text)
	}
}

func TestPatchAndEditAreApplyPatchCalls(t *testing.T) {
	s := fakeopenai.New(t)
	for _, c := range []struct{ prompt, want string }{
		{"patch:new.txt", "*** Add File: new.txt\n+hello\n"},
		{"edit:new.txt", "*** Update File: new.txt\n@@\n-hello\n+hello world\n"},
	} {
		r, err := post(t, t.Context(), s, userMsg(c.prompt))
		if err != nil {
			t.Fatal(err)
		}
		var args struct{ Cmd string }
		if len(r.calls) == 1 {
			json.Unmarshal([]byte(r.calls[0]["arguments"].(string)), &args)
		}
		if !strings.HasPrefix(args.Cmd, "apply_patch <<'EOF'\n*** Begin Patch\n") || !strings.Contains(args.Cmd, c.want) {
			t.Fatalf("%s: calls %v", c.prompt, r.calls)
		}
	}
}

func TestThinkSendsAReasoningSummary(t *testing.T) {
	s := fakeopenai.New(t)
	r, err := post(t, t.Context(), s, userMsg("think"))
	if err != nil {
		t.Fatal(err)
	}
	if r.reason == "" || !strings.HasPrefix(r.text, "Echo: think") {
		t.Fatalf("reason %q text %q", r.reason, r.text)
	}
}

func TestErrors(t *testing.T) {
	s := fakeopenai.New(t)
	for word, status := range map[string]int{"error500": 500, "error400": 400} {
		r, err := post(t, t.Context(), s, userMsg(word))
		if err != nil || r.status != status {
			t.Fatalf("%s: status %d err %v", word, r.status, err)
		}
	}
	if _, err := post(t, t.Context(), s, userMsg("down")); err == nil {
		t.Fatal("down: the request got an answer")
	}
}

func TestSlowAndHangEndWhenTheClientLeaves(t *testing.T) {
	s := fakeopenai.New(t)
	s.SlowDelay = time.Hour // nothing arrives after the first chunk until the client leaves
	for _, word := range []string{"slow", "hang"} {
		ctx, cancel := context.WithCancel(t.Context())
		b, _ := json.Marshal(map[string]any{"stream": true, "input": []any{userMsg(word)}})
		req, _ := http.NewRequestWithContext(ctx, "POST", s.BaseURL()+"/responses", bytes.NewReader(b))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := bufio.NewReader(resp.Body).ReadString('\n')
		if first != "event: response.created\n" {
			t.Fatalf("%s: first line %q", word, first)
		}
		cancel()
		resp.Body.Close()
	}
	// Close waits for the handlers: it returns only when both streams ended.
	s.Close()
	if n := s.Disconnects(); n != 2 {
		t.Fatalf("disconnects %d, want 2", n)
	}
}

func TestSetDownRefusesConnections(t *testing.T) {
	s := fakeopenai.New(t)
	if err := s.SetDown(true); err != nil {
		t.Fatal(err)
	}
	if _, err := post(t, t.Context(), s, userMsg("hello")); err == nil {
		t.Fatal("a request got through while down")
	}
	if err := s.SetDown(false); err != nil {
		t.Fatal(err)
	}
	if r, err := post(t, t.Context(), s, userMsg("hello")); err != nil || !r.done {
		t.Fatalf("after coming back: %v %+v", err, r)
	}
	if n := len(s.ResponseRequests()); n != 1 {
		t.Fatalf("%d requests logged, want the one that got through", n)
	}
}

func TestConnectIsRefused(t *testing.T) {
	s := fakeopenai.New(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodConnect, s.URL(), nil)
	req.Host = "api.openai.com:443"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].Reply != "connect" || reqs[0].Host != "api.openai.com:443" {
		t.Fatalf("log %+v", reqs)
	}
}

func TestFloodSendsManyMessages(t *testing.T) {
	s := fakeopenai.New(t)
	s.FloodItems = 30
	r, err := post(t, t.Context(), s, userMsg("flood"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range r.events {
		if e == "response.output_item.done" {
			n++
		}
	}
	if n != 30 || !strings.HasSuffix(r.text, "flood 00030: a short message of a flood turn.") {
		t.Fatalf("%d items, text %q", n, r.text[max(0, len(r.text)-80):])
	}
}

func TestRestoredAllowRunsTheToolAgain(t *testing.T) {
	s := fakeopenai.New(t)
	prompt := "The server restarted while your Bash request was waiting for my answer, so it was not run. " +
		fakeopenai.RestoredAllow + "\n" + `{"command":"touch x","cwd":"/w"}`
	r, err := post(t, t.Context(), s, userMsg(prompt))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 1 || r.calls[0]["arguments"] != `{"cmd":"touch x"}` {
		t.Fatalf("calls %v", r.calls)
	}
}
