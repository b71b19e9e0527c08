package codex

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestDisplayCommand(t *testing.T) {
	for in, want := range map[string]string{
		`/bin/bash -lc 'echo hi > a.txt && cat a.txt'`: "echo hi > a.txt && cat a.txt",
		`/bin/bash -lc false`:                          "false",
		`/bin/bash -lc 'it'\''s'`:                      "it's",
		`bash -lc "echo $HOME"`:                        `bash -lc "echo $HOME"`, // double quotes: shown as is
		`/bin/bash -lc 'a' 'b'`:                        `/bin/bash -lc 'a' 'b'`,
		`/bin/bash -lc 'unclosed`:                      `/bin/bash -lc 'unclosed`,
		`ls -la`:                                       "ls -la",
	} {
		if got := displayCommand(in); got != want {
			t.Errorf("displayCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseHunks(t *testing.T) {
	got := parseHunks("--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n-hello\n+hello\n+world\n@@ -9,2 +10,2 @@ func\n ctx\n-x\n+y\n")
	want := []hunk{
		{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 2, Lines: []string{"-hello", "+hello", "+world"}},
		{OldStart: 9, OldLines: 2, NewStart: 10, NewLines: 2, Lines: []string{" ctx", "-x", "+y"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	old, updated := hunkSides(got)
	if old != "hello\nctx\nx\n" || updated != "hello\nworld\nctx\ny\n" {
		t.Fatalf("sides %q %q", old, updated)
	}
	if h := parseHunks("@@ bogus @@\n+x\nnot a diff"); len(h) != 0 {
		t.Fatalf("malformed: %+v", h)
	}
}

func TestRules(t *testing.T) {
	r, ok := ParseRule("Bash(echo hi (twice))")
	if !ok || r != (Rule{Tool: "Bash", Content: "echo hi (twice)"}) || r.Spec() != "Bash(echo hi (twice))" {
		t.Fatalf("%+v %v", r, ok)
	}
	for _, bad := range []string{"Bash", "(x)", "Bash(x"} {
		if _, ok := ParseRule(bad); ok {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
}

func TestCost(t *testing.T) {
	// gpt-5.5: $5 in, $0.50 cached, $30 out per million.
	usd, ok := cost("gpt-5.5", tokens{Input: 1_000_000, Cached: 200_000, Output: 100_000})
	if !ok || usd != 4+0.1+3 {
		t.Fatalf("cost %v %v", usd, ok)
	}
	if _, ok := cost("gpt-fake", tokens{Input: 5}); ok {
		t.Fatal("a model without a known price got a cost")
	}
}

func usageParams(total, last int64) json.RawMessage {
	b := fmt.Sprintf(`{"tokenUsage":{"total":{"inputTokens":%d,"outputTokens":%d},"last":{"inputTokens":%d,"outputTokens":%d}}}`,
		total, total/10, last, last/10)
	return json.RawMessage(b)
}

func TestUsageCountsTheTotalsGrowth(t *testing.T) {
	var u usageCounter
	// A resumed thread: its total holds earlier turns; this turn's is the
	// last request.
	u.turnStarted()
	u.update(usageParams(500, 100))
	if got := u.turn(); got.Input != 100 {
		t.Fatalf("first turn %+v", got)
	}
	// Next turn: Codex repeats the total (a steer cut a request short),
	// then one request of 100 completes.
	u.turnStarted()
	u.update(usageParams(500, 100))
	u.update(usageParams(600, 100))
	if got := u.turn(); got.Input != 100 || got.Output != 10 {
		t.Fatalf("second turn %+v", got)
	}
	u.turnStarted()
	if got := u.turn(); got != (tokens{}) {
		t.Fatalf("a turn without usage %+v", got)
	}
}

// The engine's allowed tools that name the bridge's tools (Claude's rule
// syntax: a tool, every tool, the server) let a call run without asking;
// other tools' rules and a tool with content do not.
func TestBridgeRules(t *testing.T) {
	allowed := rules([]string{"mcp__agentdesk__show", "Bash(ls)", "mcp__github__*", "mcp__agentdesk__notify(x)"})
	for name, want := range map[string]bool{"mcp__agentdesk__show": true, "mcp__agentdesk__notify": false, "mcp__agentdesk__ls": false} {
		if got := bridgeAllowed(allowed, name); got != want {
			t.Errorf("%s allowed %v, want %v (rules %+v)", name, got, want, allowed)
		}
	}
	for _, all := range []string{"mcp__agentdesk__*", "mcp__agentdesk"} {
		if !bridgeAllowed(rules([]string{all}), "mcp__agentdesk__anything") {
			t.Errorf("%s does not allow every tool of the bridge", all)
		}
	}
}
