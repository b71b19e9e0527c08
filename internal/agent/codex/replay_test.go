package codex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// record is one line of a recording.
type record struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

func readRecording(t *testing.T, name string) []record { return readRecordingTB(t, name) }

func readRecordingTB(t testing.TB, name string) []record {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "recordings", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// replayed is what a recording's messages translate to.
type replayed struct {
	outs    []Out
	threads []string // the threads opened, in order
}

// replay feeds a recording's stdout to Translators as a Session would
// (a new one for each thread/start or thread/resume answer), with fixed
// ids and clock. The answers the recording sent to requests are made
// with Decide, which must produce them exactly.
func replay(t *testing.T, name string) replayed {
	t.Helper()
	var r replayed
	var tr *Translator
	n := 0
	asked := map[string]string{} // rpc id → request id
	for _, rec := range readRecording(t, name) {
		var env envelope
		if rec.Dir == "stderr" || rec.Dir == "note" || json.Unmarshal(rec.Msg, &env) != nil {
			continue
		}
		switch {
		case rec.Dir == "stdin" && env.Method == "" && env.Result != nil:
			answer(t, tr, asked[string(env.ID)], env.Result)
		case rec.Dir == "stdout" && env.Method == "" && strings.Contains(string(env.Result), `"thread":{`):
			var th Thread
			json.Unmarshal(env.Result, &th)
			tr = NewTranslator(th)
			tr.newID = func() string { n++; return fmt.Sprintf("id-%03d", n) }
			tr.now = func() time.Time { return time.Unix(1e9, 0) }
			r.threads = append(r.threads, th.Thread.ID)
		case rec.Dir == "stdout" && env.Method != "" && tr != nil:
			outs, _ := tr.Feed(Msg{Method: env.Method, ID: env.ID, Params: env.Params})
			for _, o := range outs {
				if o.Kind == OutRequest {
					asked[string(env.ID)] = o.Request.ID
				}
			}
			r.outs = append(r.outs, outs...)
		}
	}
	return r
}

// answer decides request id as the recorded result did, and checks that
// Decide gives that result.
func answer(t *testing.T, tr *Translator, id string, recorded json.RawMessage) {
	t.Helper()
	if id == "" {
		return // the answer to a request the Translator answered itself
	}
	var d struct{ Decision string }
	json.Unmarshal(recorded, &d)
	reply, err := tr.Decide(id, Answer{Allow: d.Decision != "decline", Session: d.Decision == "acceptForSession"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(reply.Result)
	var a, b any
	json.Unmarshal(got, &a)
	json.Unmarshal(recorded, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Decide made %s, the recording answered %s", got, recorded)
	}
}

// messages are the OutMessages, decoded.
func (r replayed) messages(t *testing.T) []msg {
	var out []msg
	for _, o := range r.outs {
		if o.Kind == OutMessage {
			out = append(out, decode(t, o))
		}
	}
	return out
}

func (r replayed) requests() []*Request {
	var out []*Request
	for _, o := range r.outs {
		if o.Kind == OutRequest {
			out = append(out, o.Request)
		}
	}
	return out
}

// shape is the messages as type[/subtype|:block kinds], for comparing
// sequences.
func (r replayed) shape(t *testing.T) []string {
	var out []string
	for _, m := range r.messages(t) {
		s := m.Type
		if m.Subtype != "" {
			s += "/" + m.Subtype
		}
		for _, b := range m.Message.Content {
			s += ":" + b.Type
		}
		out = append(out, s)
	}
	return out
}

func TestReplayEveryOutIsWellFormed(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "recordings", "*.jsonl"))
	if len(names) == 0 {
		t.Fatal("no recordings")
	}
	for _, path := range names {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		seen := map[string]bool{}
		for _, o := range replay(t, name).outs {
			switch o.Kind {
			case OutMessage:
				var m struct {
					Type      string `json:"type"`
					UUID      string `json:"uuid"`
					SessionID string `json:"session_id"`
				}
				json.Unmarshal(o.Raw, &m)
				if !strings.HasPrefix(string(o.Raw), `{"type":"`+o.Type+`",`) || m.Type != o.Type || m.UUID != o.UUID ||
					o.UUID == "" || seen[o.UUID] || m.SessionID == "" {
					t.Errorf("%s: bad message %s", name, o.Raw)
				}
				seen[o.UUID] = true
			case OutDelta:
				if !strings.HasPrefix(string(o.Raw), `{"type":"stream_event",`) || !json.Valid(o.Raw) {
					t.Errorf("%s: bad delta %s", name, o.Raw)
				}
			case OutRequest:
				if o.Request.ID == "" || !json.Valid(o.Request.Input) {
					t.Errorf("%s: bad request %+v", name, o.Request)
				}
			}
		}
	}
}

func TestReplayTextTurn(t *testing.T) {
	r := replay(t, "text")
	want := []string{"system/warning", "system/init", "assistant:thinking", "assistant:text", "result/success"}
	if got := r.shape(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %v, want %v", got, want)
	}
	var text strings.Builder
	for _, o := range r.outs {
		var ev struct {
			Event struct {
				Type  string `json:"type"`
				Delta struct{ Text string }
			} `json:"event"`
		}
		json.Unmarshal(o.Raw, &ev)
		if o.Kind == OutDelta && ev.Event.Type == "content_block_delta" {
			text.WriteString(ev.Event.Delta.Text)
		}
	}
	ms := r.messages(t)
	if got := ms[3].Message.Content[0].Text; got != text.String() || !strings.HasPrefix(got, "Echo: hello think") {
		t.Fatalf("stored %q, streamed %q", got, text.String())
	}
	res := ms[4]
	if res.Result != ms[3].Message.Content[0].Text || res.Usage["input_tokens"] != 80 || res.Usage["cache_read_input_tokens"] != 20 {
		t.Fatalf("result %+v", res)
	}
}

func TestReplayApprovals(t *testing.T) {
	r := replay(t, "approvals")
	reqs := r.requests()
	var cmds []string
	for _, q := range reqs {
		var in struct{ Command string }
		json.Unmarshal(q.Input, &in)
		cmds = append(cmds, q.Tool+" "+in.Command)
	}
	want := []string{"Bash echo hi > a.txt && cat a.txt", "Bash echo no > b.txt", "Bash touch c.txt", "Bash false"}
	if !reflect.DeepEqual(cmds, want) {
		t.Fatalf("requests %q, want %q", cmds, want)
	}
	var results []string
	for _, m := range r.messages(t) {
		for _, b := range m.Message.Content {
			if b.Type == "tool_result" {
				results = append(results, fmt.Sprintf("%v %v %q", m.ToolUseResult["exitCode"], b.IsError, b.Content))
			}
		}
	}
	want = []string{`0 false "hi\n"`, `<nil> true "The user declined this command."`, `0 false ""`, `0 false ""`, `1 true ""`}
	if !reflect.DeepEqual(results, want) {
		t.Fatalf("results %q, want %q", results, want)
	}
	var denied []string
	for _, o := range r.outs {
		if o.Type == "result" {
			var res struct {
				Denials []struct {
					ToolName string `json:"tool_name"`
				} `json:"permission_denials"`
			}
			json.Unmarshal(o.Raw, &res)
			for _, d := range res.Denials {
				denied = append(denied, d.ToolName)
			}
		}
	}
	if !reflect.DeepEqual(denied, []string{"Bash"}) {
		t.Fatalf("results list denials %q, want the one declined Bash", denied)
	}
}

func TestReplayFileChanges(t *testing.T) {
	r := replay(t, "filechange")
	var calls []string
	for _, m := range r.messages(t) {
		for _, b := range m.Message.Content {
			if b.Type == "tool_use" {
				calls = append(calls, b.Name+" "+string(b.Input))
			}
		}
	}
	if len(calls) != 2 || !strings.HasPrefix(calls[0], `Write {"content":"hello\n","file_path":"/`) ||
		!strings.Contains(calls[1], `"new_string":"hello world\n","old_string":"hello\n"`) {
		t.Fatalf("calls %q", calls)
	}
	if reqs := r.requests(); len(reqs) != 2 || reqs[0].Tool != "Write" || reqs[1].Tool != "Edit" {
		t.Fatalf("requests %+v", reqs)
	}
}

func TestReplayInterrupt(t *testing.T) {
	r := replay(t, "interrupt")
	want := []string{"system/warning", "system/init", "assistant:text", "result/error_during_execution",
		"system/warning", "system/init", "assistant:text", "result/success"}
	if got := r.shape(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %v, want %v", got, want)
	}
	if cut := r.messages(t)[2]; !cut.Aborted {
		t.Fatalf("the cut text is not marked aborted: %+v", cut)
	}
}

func TestReplaySteer(t *testing.T) {
	r := replay(t, "steer")
	want := []string{"system/warning", "system/init", "assistant:text", "assistant:text", "result/success"}
	if got := r.shape(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %v, want %v", got, want)
	}
	ms := r.messages(t)
	if !ms[2].Aborted || !strings.HasPrefix(ms[3].Message.Content[0].Text, "Echo: steer: go on") {
		t.Fatalf("messages %+v %+v", ms[2], ms[3])
	}
	// Two model requests, the first cut short by the steer before the
	// fake reported its usage: the turn's tokens are the second's.
	if ms[4].Usage["output_tokens"] != 10 {
		t.Fatalf("usage %+v", ms[4].Usage)
	}
}

func TestReplayResume(t *testing.T) {
	r := replay(t, "resume")
	if len(r.threads) != 2 || r.threads[0] != r.threads[1] {
		t.Fatalf("threads %v", r.threads)
	}
	results := 0
	for _, m := range r.messages(t) {
		if m.Type == "result" {
			results++
			// A resumed thread's first turn counts its own tokens only.
			if m.Usage["output_tokens"] != 10 {
				t.Fatalf("result %d usage %+v", results, m.Usage)
			}
		}
	}
	if results != 2 {
		t.Fatalf("%d results, want 2 (the killed turn has none)", results)
	}
}

func TestReplayAPIDownAndFailure(t *testing.T) {
	r := replay(t, "apidown")
	for _, o := range r.outs {
		if retry := strings.Contains(string(o.Raw), `"subtype":"api_retry"`); retry != o.Retrying {
			t.Fatalf("Retrying %v on %s", o.Retrying, o.Raw)
		}
	}
	down := r2s(r.shape(t))
	if !strings.Contains(down, "system/api_retry") || !strings.HasSuffix(down, "result/error_during_execution") {
		t.Fatalf("api down: %s", down)
	}
	failed := replay(t, "failed").messages(t)
	if last := failed[len(failed)-1]; last.Subtype != "error" || !last.IsError || !strings.Contains(last.Result, "scripted bad request") {
		t.Fatalf("failed turn %+v", last)
	}
}

func r2s(s []string) string { return strings.Join(s, " ") }
