package fakeapi

import (
	"net/http"
	"regexp"
	"strings"
)

// Scripted tool sequences for the chat's tool cards (issue 15): a prompt
// holding "tools:<name>" gets the steps of scripts[name], one per request of
// that turn, then the usual tool_result summary. The step is the number of
// assistant messages after the prompt, so the fake stays stateless: the
// request itself says how far the turn has got. A Task step makes the real
// CLI run a subagent, whose own requests start from the Task's prompt and so
// follow a script of their own ("tools:sub"). CLI 2.1.330 runs TodoWrite only
// with CLAUDE_CODE_ENABLE_TASKS=0 and CLAUDE_CODE_ENABLE_TODO_TOOLS=1, and a
// Task (its "Agent" tool) in the background: the Task's result comes at once,
// the subagent's lines after it, with parent_tool_use_id.
var toolsRe = regexp.MustCompile(`(?i)\btools:([a-z]+)`)

// Files the scripts touch, relative to the session's directory.
const (
	scriptFile  = "hello.py"
	scriptImage = "pixel.png"
)

var todosStart = []any{
	map[string]any{"content": "Read the code", "activeForm": "Reading the code", "status": "completed"},
	map[string]any{"content": "Build the thing", "activeForm": "Building the thing", "status": "in_progress"},
	map[string]any{"content": "Write the tests", "activeForm": "Writing the tests", "status": "pending"},
}

var todosDone = []any{
	map[string]any{"content": "Read the code", "activeForm": "Reading the code", "status": "completed"},
	map[string]any{"content": "Build the thing", "activeForm": "Building the thing", "status": "completed"},
	map[string]any{"content": "Write the tests", "activeForm": "Writing the tests", "status": "completed"},
}

const newFile = "def greet(name):\n    return \"hello \" + name\n\n\nprint(greet(\"world\"))\n"

// scripts: each step is the content blocks of one reply (stop_reason tool_use).
var scripts = map[string][][]block{
	// A checklist, a Bash call that asks for permission (the turn waits
	// there, with the list pinned), then the list all done.
	"todo": {
		{textBlock("Let me plan this."), toolBlock("TodoWrite", map[string]any{"todos": todosStart})},
		{toolBlock("Bash", map[string]any{"command": "touch built.txt", "description": "Build the thing"})},
		{toolBlock("TodoWrite", map[string]any{"todos": todosDone})},
	},
	// A new file written, then edited in two places.
	"edit": {
		{textBlock("I'll write the file."), toolBlock("Write", map[string]any{"file_path": scriptFile, "content": newFile})},
		{toolBlock("Edit", map[string]any{"file_path": scriptFile,
			"old_string": "    return \"hello \" + name\n", "new_string": "    # Say hello.\n    return f\"hello {name}\"\n"})},
	},
	// A file read (read-only: no permission asked). CLI 2.1.330 has no Grep
	// or Glob tool (it answers "No such tool available").
	"search": {{toolBlock("Read", map[string]any{"file_path": scriptFile})}},
	// Read of an image: the tool_result carries an image block.
	"image": {{toolBlock("Read", map[string]any{"file_path": scriptImage})}},
	// A subagent, which runs the "sub" script.
	"agent": {{textBlock("I'll ask a subagent."), toolBlock("Task", map[string]any{
		"description": "Survey the tree", "subagent_type": "general-purpose",
		"prompt": "tools:sub Look at the files and report."})}},
	// The subagent's Bash call asks for permission: it waits there, running.
	"sub": {{textBlock("Looking around."), toolBlock("Bash", map[string]any{"command": "touch surveyed.txt", "description": "Mark the survey"})}},
}

func textBlock(text string) block { return block{Type: "text", Text: text} }

func toolBlock(name string, input map[string]any) block {
	return block{Type: "tool_use", ToolName: name, Input: input}
}

// scriptPlan is the next step of a "tools:<name>" script, if the turn's
// prompt names one and steps are left.
func scriptPlan(body messagesBody) (plan, bool) {
	if len(body.Tools) == 0 {
		return plan{}, false
	}
	at := promptIndex(body.Messages)
	if at < 0 {
		return plan{}, false
	}
	m := toolsRe.FindStringSubmatch(body.Messages[at].Text())
	if m == nil {
		return plan{}, false
	}
	name := strings.ToLower(m[1])
	steps := scripts[name]
	step := 0
	for _, msg := range body.Messages[at+1:] {
		if msg.Role == "assistant" {
			step++
		}
	}
	if step >= len(steps) {
		return plan{}, false
	}
	return plan{kind: "tools:" + name, status: http.StatusOK, stop: "tool_use", blocks: steps[step]}, true
}

// promptIndex is the index of the last user message a person wrote: text,
// and no tool results. -1 when there is none.
func promptIndex(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" || msgs[i].Text() == "" {
			continue
		}
		result := false
		for _, b := range msgs[i].Blocks() {
			result = result || b.Type == "tool_result"
		}
		if !result {
			return i
		}
	}
	return -1
}
