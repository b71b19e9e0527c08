package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// TestRestoredAnswerTexts: the user message of each kind of answer given
// after a restart.
func TestRestoredAnswerTexts(t *testing.T) {
	in := json.RawMessage(`{"questions":[],"answers":{"Which color?":"Blue","Which size?":"Big"}}`)
	for _, c := range []struct{ tool, behavior, msg, want string }{
		{"Bash", "allow", "", RestoredAllow + "\n" + `{"command":"ls"}`},
		{"Bash", "deny", "", "I deny it: " + defaultDeny},
		{"Bash", "deny", "no", "I deny it: no"},
		{"ExitPlanMode", "allow", "", "I approve your plan."},
		{"AskUserQuestion", "allow", "", "My answers:\n- Which color? → Blue\n- Which size? → Big"},
	} {
		input := json.RawMessage(`{ "command": "ls" }`)
		if c.tool == "AskUserQuestion" {
			input = in
		}
		kind := map[string]agent.RequestKind{"ExitPlanMode": agent.RequestPlan, "AskUserQuestion": agent.RequestQuestion}[c.tool]
		got := restoredAnswer(kind, c.tool, c.behavior, c.msg, input)
		if !strings.Contains(got, c.want) || !strings.Contains(got, "your "+c.tool+" request") {
			t.Errorf("%s %s: %q, want it to hold %q", c.tool, c.behavior, got, c.want)
		}
	}
}
