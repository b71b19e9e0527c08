package server

import (
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// oauthChildEnv is the fake API's clean CLI environment with the fake
// subscription token in place of the API key.
func oauthChildEnv(api *fakeapi.Server, home string) []string {
	var env []string
	for _, kv := range api.ClaudeEnv(home) {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	return append(env, "CLAUDE_CODE_OAUTH_TOKEN="+fakeapi.FakeOAuthToken)
}

type usageAnswer struct {
	GroupBy string
	Rows    []struct {
		Key, Title   string
		CostUSD      float64 `json:"costUsd"`
		InputTokens  int64
		OutputTokens int64
		Turns        int64
	}
	Total struct {
		CostUSD      float64 `json:"costUsd"`
		InputTokens  int64
		OutputTokens int64
		Turns        int64
	}
}

// turnFigures sums what the result frames say the turns cost on their
// own (model_usage_since_last_result), and returns the last result's
// cumulative modelUsage input tokens.
func turnFigures(t *testing.T, frames []map[string]any) (cost float64, in, out int64, cumIn int64) {
	t.Helper()
	for _, f := range frames {
		msg := f["message"].(map[string]any)
		if msg["type"] != "result" {
			continue
		}
		for _, v := range msg["model_usage_since_last_result"].(map[string]any) {
			m := v.(map[string]any)
			cost += m["costUSD"].(float64)
			in += int64(m["inputTokens"].(float64))
			out += int64(m["outputTokens"].(float64))
		}
		cumIn = 0
		for _, v := range msg["modelUsage"].(map[string]any) {
			cumIn += int64(v.(map[string]any)["inputTokens"].(float64))
		}
	}
	return cost, in, out, cumIn
}

func turn(t *testing.T, e *env, base string, tab *websocket.Conn, content string) []map[string]any {
	t.Helper()
	if a := e.do("POST", base+"/input", map[string]string{"content": content}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	return stored(t, tab)
}

// TestUsageAndRateLimitRealCLI drives the real CLI, logged in with a fake
// subscription token, through two turns of one process, a server restart
// (the next turn is a --resume'd process whose modelUsage starts from the
// old sums) and one more turn. The roll-up must equal the per-turn sums
// the results carry; the rate_limit_event of the "nearlimit" turn must be
// stored, broadcast on /ws/app and survive the restart.
func TestUsageAndRateLimitRealCLI(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	e := &env{t: t, dir: t.TempDir(), kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(claudePath)},
		cfg: worker.Config{ClaudePath: claudePath, ChildEnv: oauthChildEnv(api, t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)

	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk", "title": "metered"}).json(t, &s)
	wid := s.Workers[0].ID
	base, path := "/api/sessions/"+s.ID+"/workers/"+wid, "/ws/sessions/"+s.ID+"/workers/"+wid
	app := e.dial("/ws/app")
	readJSON(t, app, "sessions-sync")
	tab := e.dial(path)
	readJSON(t, tab, "history-end")
	frames := turn(t, e, base, tab, "hello")
	frames = append(frames, turn(t, e, base, tab, "nearlimit please")...)
	cost1, in1, out1, cum := turnFigures(t, frames)
	if in1 != cum {
		t.Fatalf("one process: per-turn input %d, cumulative %d", in1, cum)
	}
	// The first turn may report "allowed" first; the nearlimit one warns.
	rl := readJSON(t, app, "rate-limit")["rateLimit"].(map[string]any)
	for range 4 {
		if rl["status"] == "allowed_warning" {
			break
		}
		rl = readJSON(t, app, "rate-limit")["rateLimit"].(map[string]any)
	}
	if rl["status"] != "allowed_warning" || rl["rateLimitType"] != "five_hour" || rl["utilization"] != 0.92 ||
		rl["resetsAt"] != float64(fakeapi.RateLimitReset.Unix()) || rl["sessionId"] != s.ID || rl["workerId"] != wid {
		t.Fatalf("rate-limit frame: %v", rl)
	}
	app.CloseNow()
	tab.CloseNow()

	e.restart()
	var got struct{ RateLimit map[string]any }
	e.do("GET", "/api/rate-limits", nil).json(t, &got)
	if got.RateLimit["status"] != "allowed_warning" || got.RateLimit["info"] == nil {
		t.Fatalf("stored rate limit after restart: %v", got)
	}
	tab = e.dial(path + "?after=" + frames[len(frames)-1]["message"].(map[string]any)["uuid"].(string))
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	later := turn(t, e, base, tab, "after the restart")
	cost2, in2, out2, cum2 := turnFigures(t, later)
	if cum2 <= in2 {
		t.Fatalf("the resumed process's modelUsage (%d) should carry the old sums (turn: %d)", cum2, in2)
	}

	var u usageAnswer
	if a := e.do("GET", "/api/usage?groupBy=session", nil); a.status != 200 {
		t.Fatalf("usage: %d %s", a.status, a.body)
	} else {
		a.json(t, &u)
	}
	if len(u.Rows) != 1 || u.Rows[0].Key != s.ID || u.Rows[0].Title != "metered" || u.Rows[0].Turns != 3 ||
		u.Rows[0].InputTokens != in1+in2 || u.Rows[0].OutputTokens != out1+out2 ||
		math.Abs(u.Rows[0].CostUSD-(cost1+cost2)) > 1e-9 {
		t.Fatalf("usage %+v; want 3 turns, %d in, %d out, $%f", u, in1+in2, out1+out2, cost1+cost2)
	}
	var only usageAnswer
	e.do("GET", "/api/usage?groupBy=model&sessionId="+s.ID, nil).json(t, &only)
	if only.Total != u.Total || len(only.Rows) != 1 {
		t.Fatalf("by model: %+v, want total %+v", only, u.Total)
	}
}

func TestUsageParams(t *testing.T) {
	e := newEnv(t, nil)
	for _, q := range []string{"groupBy=week", "from=yesterday", "to=2026-13-01", "from=2026-11-02&to=2026-11-01",
		"from=2024-01-01&to=2026-01-01"} {
		a := e.do("GET", "/api/usage?"+q, nil)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
			t.Errorf("%s: %d %s, want 400 invalid_field", q, a.status, a.body)
		}
	}
	var u struct {
		From, To, GroupBy string
		Rows              []any
	}
	e.do("GET", "/api/usage?to=2026-11-24", nil).json(t, &u)
	if u.From != "2026-10-26" || u.To != "2026-11-24" || u.GroupBy != "day" || u.Rows == nil || len(u.Rows) != 0 {
		t.Errorf("defaults: %+v", u)
	}
	var rl struct{ RateLimit any }
	if a := e.do("GET", "/api/rate-limits", nil); a.status != 200 {
		t.Errorf("rate limits: %d", a.status)
	} else if a.json(t, &rl); rl.RateLimit != nil {
		t.Errorf("no state yet: %v", rl)
	}
}
