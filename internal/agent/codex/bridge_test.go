package codex

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// A provider's result in DynamicToolCallResponse's shape (the pinned
// schema, testdata/schema/DynamicToolCallResponse.json).
func TestDynamicToolResponse(t *testing.T) {
	for _, tc := range []struct {
		in   toolbridge.Result
		want string
	}{
		{toolbridge.TextResult("hi"), `{"contentItems":[{"type":"inputText","text":"hi"}],"success":true}`},
		{toolbridge.ErrorResult("no"), `{"contentItems":[{"type":"inputText","text":"no"}],"success":false}`},
		{toolbridge.Result{Content: []toolbridge.Content{
			{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="},
			{Type: "json", JSON: json.RawMessage(`{"rows":3}`)},
		}}, `{"contentItems":[{"type":"inputImage","imageUrl":"data:image/png;base64,iVBORw0KGgo="},{"type":"inputText","text":"{\"rows\":3}"}],"success":true}`},
		{toolbridge.Result{}, `{"contentItems":[],"success":true}`},
	} {
		got, err := json.Marshal(response(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("response(%+v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// A session's disallowedTools take the bridge's tools they name away: not
// declared to a new thread, and a call of one (a resumed thread keeps the
// tools it was started with) answered with an error at once, its provider
// never asked.
func TestBridgeDisallowed(t *testing.T) {
	reg := toolbridge.New(toolbridge.Options{})
	p := reg.Connect("test tab")
	defer p.Close()
	echo := json.RawMessage(`{"type":"object"}`)
	if _, err := p.Register("s1", []toolbridge.Tool{{Name: "echo", Description: "Echoes.", InputSchema: echo}, {Name: "notify", Description: "Notifies.", InputSchema: echo}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		off  []string
		want []string
	}{
		{nil, []string{"echo", "notify"}},
		{[]string{BridgePrefix + "notify"}, []string{"echo"}},
		{[]string{BridgePrefix + "*"}, nil},
		{[]string{"mcp__agentdesk"}, nil},
		{[]string{"mcp__other__notify", "Bash"}, []string{"echo", "notify"}},
	} {
		b := newBridge(reg, "s1", tc.off)
		var got []string
		for _, d := range b.declare() {
			got = append(got, d.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("off %v: declared %v, want %v", tc.off, got, tc.want)
		}
		b.stop()
	}
	b := newBridge(reg, "s1", []string{BridgePrefix + "notify"})
	defer b.stop()
	replies := make(chan Reply, 1)
	b.call(Msg{ID: json.RawMessage(`7`), Params: json.RawMessage(`{"callId":"c1","tool":"notify","arguments":{}}`)}, func(r Reply) { replies <- r })
	r := <-replies
	out, _ := json.Marshal(r.Result)
	if string(r.ID) != "7" || !strings.Contains(string(out), `"success":false`) || !strings.Contains(string(out), "disallowed") {
		t.Errorf("a disallowed call answered %s: %s", r.ID, out)
	}
	select {
	case f := <-p.Frames():
		t.Errorf("the provider was asked: %s", f)
	default:
	}
}
