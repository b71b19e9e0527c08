package toolbridge

import (
	"encoding/json"
	"testing"
)

func echoTool(name string) Tool {
	return Tool{Name: name, Description: "Echo text back.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

// frame reads the provider's next frame, failing when none is queued.
func frame(t *testing.T, p *Provider) map[string]any {
	t.Helper()
	select {
	case b := <-p.Frames():
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("frame %s: %v", b, err)
		}
		return m
	default:
		t.Fatal("no frame queued for the provider")
		return nil
	}
}

// nextFrame waits for the provider's next frame.
func nextFrame(t *testing.T, p *Provider) map[string]any {
	t.Helper()
	b := <-p.Frames()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("frame %s: %v", b, err)
	}
	return m
}

func register(t *testing.T, p *Provider, scope string, tools ...Tool) {
	t.Helper()
	if _, err := p.Register(scope, tools); err != nil {
		t.Fatalf("register %s: %v", scope, err)
	}
}

// answerNext answers the next call routed to p with res, returning the
// call frame.
func answerNext(t *testing.T, p *Provider, res Result) map[string]any {
	t.Helper()
	f := nextFrame(t, p)
	if f["type"] != TypeCall {
		t.Fatalf("got %v, want a call", f)
	}
	if err := p.Answer(f["callId"].(string), res); err != nil {
		t.Errorf("answer: %v", err)
	}
	return f
}
