package chat

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// The user messages that carry an answer given after a restart. The
// resumed agent drops the tool call that was never answered (it stands as
// "No response requested.", see testdata/resume-after-crash.json), so the
// message says what the person decided and what to do now.

// restartNote opens every such message.
const restartNote = "The server restarted while your %s request was waiting for my answer, so it was not run."

// RestoredAllow is the sentence of an allow after a restart; the fake
// Messages API answers a message with it by calling the tool again.
const RestoredAllow = "I approve it now: run it again with exactly this input:"

func restoredAnswer(kind agent.RequestKind, tool, behavior, message string, input json.RawMessage) string {
	head := fmt.Sprintf(restartNote, tool)
	switch {
	case behavior == "deny":
		if message == "" {
			message = defaultDeny
		}
		return head + " I deny it: " + message
	case kind == agent.RequestPlan:
		return head + " I approve your plan. Go ahead and implement it now."
	case kind == agent.RequestQuestion:
		return head + " My answers:\n" + answers(input)
	}
	return head + " " + RestoredAllow + "\n" + string(compact(input))
}

// answers lists the answers of a question request's allow ("answers" of its
// updatedInput: question → answer), one a line.
func answers(input json.RawMessage) string {
	var in struct {
		Answers map[string]string `json:"answers"`
	}
	if err := json.Unmarshal(input, &in); err != nil || len(in.Answers) == 0 {
		return string(compact(input))
	}
	var b strings.Builder
	for _, q := range slices.Sorted(maps.Keys(in.Answers)) {
		fmt.Fprintf(&b, "- %s → %s\n", q, in.Answers[q])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func compact(b json.RawMessage) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	out, _ := json.Marshal(v)
	return out
}
