package fakeapi

import (
	"bytes"
	"regexp"
	"strings"
)

// PlanText is the plan the "plan" reply writes and proposes: a little
// markdown (and a script tag), so a client's rendering can be checked.
const PlanText = "# Plan\n\n1. Create `hello.txt`\n2. Write **hello** into it\n\n<script>alert(1)</script>"

// PlanModeReminder is a phrase of the system reminder the CLI adds to the
// first request of a turn in plan mode (claude-cli.md, "Plan mode").
const PlanModeReminder = "Plan mode is active"

// planFileRe finds the plan file the reminder tells the model to write.
var planFileRe = regexp.MustCompile(`create your plan at (\S+\.md) using the Write tool`)

// planPlan is the reply to a prompt with the word "plan". In plan mode
// the CLI (2.1.330) takes the plan from its plan file, not from the
// ExitPlanMode input, so the model writes the file first (planFollowUp
// then calls ExitPlanMode); outside plan mode it calls ExitPlanMode with
// the plan as input at once. Either way the CLI asks can_use_tool.
func planPlan(body messagesBody) plan {
	for _, m := range body.Messages {
		if sub := planFileRe.FindStringSubmatch(string(m.Content)); sub != nil {
			return toolPlan("plan", "I'll write the plan.", "Write",
				map[string]any{"file_path": sub[1], "content": PlanText})
		}
	}
	return exitPlan()
}

func exitPlan() plan {
	return toolPlan("plan", "Here is my plan.", "ExitPlanMode", map[string]any{"plan": PlanText})
}

// planFollowUp answers the result of writing the plan file with the call
// to ExitPlanMode.
func planFollowUp(msgs []Message, last Message) (plan, bool) {
	wrote := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Blocks() {
			if b.Type == "tool_use" && b.Name == "Write" && bytes.Contains(b.Input, []byte("/.claude/plans/")) {
				wrote[b.ID] = true
			}
		}
	}
	for _, b := range last.Blocks() {
		// An error too: a second plan rewrites a file the model has not read.
		if b.Type == "tool_result" && wrote[b.ToolUseID] {
			return exitPlan(), true
		}
	}
	return plan{}, false
}

// InPlanMode reports whether the request carries the CLI's plan-mode
// reminder.
func (r Request) InPlanMode() bool {
	return bytes.Contains(r.RawBody, []byte(PlanModeReminder)) || strings.Contains(r.LastUserText(), PlanModeReminder)
}
