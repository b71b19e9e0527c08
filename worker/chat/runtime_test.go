package chat

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

func send(t *testing.T, h *harness, content string) {
	t.Helper()
	if err := h.rt.SendUser(t.Context(), content); err != nil {
		t.Fatalf("SendUser(%q): %v", content, err)
	}
}

func TestTurnStoredInOrder(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	if len(a.frames) != 2 || a.frames[0].Type != "history-end" || a.frames[0].Last != nil ||
		a.frames[1].Type != "activity" || a.frames[1].State != "idle" {
		t.Fatalf("empty worker replay: %s", rawList(a.frames))
	}
	send(t, h, "hello **world**")
	a.until(isResult)
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })

	msgs := storedFrames(t, h.store)
	wantTypes := []string{"user", "system", "assistant", "result"}
	if len(msgs) != len(wantTypes) {
		t.Fatalf("log has %d messages, want %d", len(msgs), len(wantTypes))
	}
	for i, m := range msgs {
		f := decode(t, m.Data)
		if m.Seq != uint64(i+1) || f.Seq != m.Seq || f.Message.Type != wantTypes[i] || f.Message.UUID != m.UUID {
			t.Errorf("message %d: seq %d/%d type %q uuid %q/%q", i, m.Seq, f.Seq, f.Message.Type, f.Message.UUID, m.UUID)
		}
	}
	sameFrames(t, storedOf(a.frames), msgs)

	var user struct {
		Message   struct{ Role, Content string }
		SessionID string `json:"session_id"`
		Timestamp string
	}
	if err := json.Unmarshal(decode(t, msgs[0].Data).Raw, &user); err != nil {
		t.Fatal(err)
	}
	if user.Message.Role != "user" || user.Message.Content != "hello **world**" || user.SessionID != h.rt.conv || user.Timestamp == "" {
		t.Errorf("user message: %+v", user)
	}
	if html := decode(t, msgs[2].Data).HTML["0"]; !strings.Contains(html, "<p>Echo: hello <strong>world</strong></p>") {
		t.Errorf("assistant html: %q", html)
	}
	if decode(t, msgs[3].Data).HTML != nil {
		t.Error("result frame has html")
	}
	var acts []string
	for _, f := range a.frames {
		if f.Type == "activity" {
			acts = append(acts, f.State)
		}
	}
	if strings.Join(acts, ",") != "idle,active,idle" {
		t.Errorf("activity frames %v, want idle,active,idle", acts)
	}
	h.waitInfo(func(i worker.Info) bool {
		return i.Status == worker.StatusRunning && i.Activity != nil && *i.Activity == worker.ActivityIdle
	})
	if h.conv == "" || h.conv != h.rt.conv {
		t.Errorf("conversation %q not recorded (%q)", h.rt.conv, h.conv)
	}
	if args := h.args(); len(args) != 1 || !strings.Contains(args[0], "--session-id "+h.conv) {
		t.Errorf("CLI args %q, want one start with --session-id", args)
	}
}

func rawList(fs []frame) string {
	var b strings.Builder
	for _, f := range fs {
		b.Write(f.raw)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestCommittedBeforePublished(t *testing.T) {
	// Fewer lines than a subscriber's queue: this slow reader (a read
	// transaction per frame) must not be kicked.
	h := newHarness(t, harnessOptions{env: []string{"FAKECLAUDE_FLOOD=900"}})
	a := attach(t, h.rt, "")
	send(t, h, "flood")
	n := 0
	a.until(func(f frame) bool {
		if f.stored() {
			n++
			if _, err := h.store.SeqOf("w1", f.Message.UUID); err != nil {
				t.Fatalf("frame seq %d published before commit: %v", f.Seq, err)
			}
		}
		return isResult(f)
	})
	if n != 903 {
		t.Errorf("saw %d stored frames, want 903", n)
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h.store))
}

func TestTwoAttachmentsIdentical(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a, b := attach(t, h.rt, ""), attach(t, h.rt, "")
	send(t, h, "one")
	send(t, h, "two")
	for _, r := range []*reader{a, b} {
		r.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "Echo: two") })
		r.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	}
	if rawList(a.frames) != rawList(b.frames) {
		t.Fatalf("attachments differ:\n%s\n---\n%s", rawList(a.frames), rawList(b.frames))
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h.store))
}

// permissionScript is a turn that streams, then asks to run a tool and
// waits for the answer.
func permissionScript(t *testing.T) string {
	return writeScript(t,
		`{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1"}},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll run"}},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"touch x"}}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"control_request","request_id":"req-{{UUID}}","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch x"},"description":"Run touch x","tool_use_id":"toolu_1","permission_suggestions":[{"type":"setMode","mode":"acceptEdits"}],"blocked_path":"/x"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"stream_event","event":{"type":"message_stop"},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}`,
	)
}

func kinds(fs []frame) string {
	var out []string
	for _, f := range fs {
		k := f.Type
		if f.Type == "sdk-message" {
			k = f.Message.Type
		}
		if f.Type == "activity" {
			k += ":" + f.State
		}
		out = append(out, k)
	}
	return strings.Join(out, ",")
}

func TestPermissionPendingAcrossAttach(t *testing.T) {
	h := newHarness(t, harnessOptions{env: []string{"FAKECLAUDE_SCRIPT=" + permissionScript(t)}})
	a := attach(t, h.rt, "")
	send(t, h, "go")
	req := a.until(isType("permission-request"))
	var full map[string]any
	json.Unmarshal(req.raw, &full)
	for _, k := range []string{"requestId", "toolName", "input", "description", "toolUseId", "permissionSuggestions", "blockedPath"} {
		if _, ok := full[k]; !ok {
			t.Errorf("permission-request lacks %q: %s", k, req.raw)
		}
	}
	if req.ToolName != "Bash" || string(req.Input) != `{"command":"touch x"}` {
		t.Errorf("permission-request: %s", req.raw)
	}
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "asking" })
	h.waitInfo(func(i worker.Info) bool { return i.Activity != nil && *i.Activity == worker.ActivityAsking })

	// A tab that connects now sees the turn so far and the question.
	b := attach(t, h.rt, "")
	if got, want := kinds(b.frames), "user,system,assistant,history-end,stream_event,stream_event,permission-request,activity:asking"; got != want {
		t.Fatalf("mid-turn attach: %s, want %s", got, want)
	}
	userUUID := b.frames[0].Message.UUID
	c := attach(t, h.rt, userUUID)
	if got, want := kinds(c.frames), "system,assistant,history-end,stream_event,stream_event,permission-request,activity:asking"; got != want {
		t.Fatalf("attach after the user message: %s, want %s", got, want)
	}
	if *c.frames[2].Last != b.frames[2].Message.UUID {
		t.Errorf("history-end.last %q, want the assistant's uuid", *c.frames[2].Last)
	}

	if err := h.rt.RespondPermission("nope", "allow", "", nil); !errors.Is(err, worker.ErrInvalid) {
		t.Errorf("unknown request id: %v, want ErrInvalid", err)
	}
	resp := `{"type":"permission-response","requestId":"` + req.RequestID + `","behavior":"allow"}`
	if _, err := h.rt.HandleClient(t.Context(), []byte(resp)); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*reader{a, b, c} {
		res := r.until(isType("permission-resolved"))
		if res.RequestID != req.RequestID || res.Behavior != "allow" {
			t.Errorf("permission-resolved: %s", res.raw)
		}
		r.until(isResult)
	}
	if err := h.rt.RespondPermission(req.RequestID, "allow", "", nil); !errors.Is(err, worker.ErrInvalid) {
		t.Errorf("answering twice: %v, want ErrInvalid", err)
	}
	b.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	d := attach(t, h.rt, "")
	if got, want := kinds(d.frames), "user,system,assistant,user,result,history-end,activity:idle"; got != want {
		t.Errorf("attach after the turn: %s, want %s", got, want)
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h.store))
	sameFrames(t, storedOf(b.frames), storedFrames(t, h.store))
}

func TestCancel(t *testing.T) {
	h := newHarness(t, harnessOptions{env: []string{"FAKECLAUDE_SCRIPT=" + permissionScript(t)}})
	if ok, err := h.rt.Cancel(t.Context()); ok || err != nil {
		t.Fatalf("Cancel when idle = %v, %v", ok, err)
	}
	a := attach(t, h.rt, "")
	send(t, h, "go")
	req := a.until(isType("permission-request"))
	ok, err := h.rt.Cancel(t.Context())
	if !ok || err != nil {
		t.Fatalf("Cancel during a turn = %v, %v", ok, err)
	}
	res := a.until(isType("permission-resolved"))
	if res.RequestID != req.RequestID || res.Behavior != "deny" {
		t.Errorf("pending request not denied: %s", res.raw)
	}
	a.until(isResult)
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	if ok, err := h.rt.Cancel(t.Context()); ok || err != nil {
		t.Errorf("Cancel after the turn = %v, %v", ok, err)
	}
	if _, err := h.rt.HandleClient(t.Context(), []byte(`{"type":"cancel"}`)); err != nil {
		t.Errorf("cancel frame when idle: %v", err)
	}
}

func TestValidation(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for _, c := range []string{"", "  \n", strings.Repeat("x", MaxUserMessage+1)} {
		if err := h.rt.SendUser(t.Context(), c); !errors.Is(err, worker.ErrInvalid) {
			t.Errorf("SendUser(%.10q…): %v, want ErrInvalid", c, err)
		}
	}
	frames := []struct{ name, data string }{
		{"not json", `hello`},
		{"no type", `{}`},
		{"unknown type", `{"type":"bogus"}`},
		{"user-message without content", `{"type":"user-message"}`},
		{"user-message empty", `{"type":"user-message","content":""}`},
		{"content not a string", `{"type":"user-message","content":5}`},
		{"unknown request", `{"type":"permission-response","requestId":"x","behavior":"allow"}`},
		{"bad behavior", `{"type":"permission-response","requestId":"x","behavior":"maybe"}`},
		{"updatedInput not an object", `{"type":"permission-response","requestId":"x","behavior":"allow","updatedInput":[1]}`},
	}
	for _, f := range frames {
		t.Run(f.name, func(t *testing.T) {
			if _, err := h.rt.HandleClient(t.Context(), []byte(f.data)); !errors.Is(err, worker.ErrInvalid) {
				t.Errorf("HandleClient(%s): %v, want ErrInvalid", f.data, err)
			}
		})
	}
	if n, _ := h.store.MessageCount("w1"); n != 0 {
		t.Errorf("invalid input stored %d messages", n)
	}
}

func TestUUIDsAssigned(t *testing.T) {
	script := writeScript(t,
		`{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}"}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"one"}]},"uuid":"same"}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"two"}]},"uuid":"same"}`,
		`{"type":"system","subtype":"status","uuid":""}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","uuid":"r1"}`,
	)
	h := newHarness(t, harnessOptions{env: []string{"FAKECLAUDE_SCRIPT=" + script}})
	a := attach(t, h.rt, "")
	send(t, h, "go")
	a.until(isResult)
	msgs := storedFrames(t, h.store)
	if len(msgs) != 6 {
		t.Fatalf("log has %d messages, want 6", len(msgs))
	}
	seen := map[string]bool{}
	for _, m := range msgs {
		f := decode(t, m.Data)
		if m.UUID == "" || seen[m.UUID] || f.Message.UUID != m.UUID {
			t.Errorf("message %d: stored uuid %q, frame uuid %q", m.Seq, m.UUID, f.Message.UUID)
		}
		seen[m.UUID] = true
	}
	if msgs[2].UUID != "same" || msgs[3].UUID == "same" || msgs[5].UUID != "r1" {
		t.Errorf("uuids %q %q %q: the CLI's are kept unless repeated", msgs[2].UUID, msgs[3].UUID, msgs[5].UUID)
	}
	if strings.Count(string(decode(t, msgs[4].Data).Raw), `"uuid"`) != 1 {
		t.Errorf("empty uuid not replaced: %s", msgs[4].Data)
	}
}
