package fakeopenai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// plan is the reply decided for one /v1/responses request.
type plan struct {
	kind   string // Request.Reply
	status int    // 200, or the error status
	errMsg string
	items  []item
	slow   bool // stream the text chunk by chunk, SlowDelay apart
	hang   bool // send response.created, then nothing
	down   bool // close the connection without an answer
}

// item is one output item to stream.
type item struct {
	Type   string   // message, reasoning, function_call
	Text   string   // message text, or the reasoning summary
	Chunks []string // the deltas of Text, when they matter (slow)
	Name   string   // function_call
	// Namespace is a function_call's namespace (an MCP server's tools
	// come in the namespace mcp__<server>).
	Namespace string
	Args      string // function_call arguments (JSON text)
}

var (
	wordRe  = regexp.MustCompile(`[a-z0-9]+`)
	bashRe  = regexp.MustCompile(`(?i)\bbash:([^\n]*)`)
	patchRe = regexp.MustCompile(`(?i)\b(patch|edit):(\S+)`)
	// toolRe is "tool:NAME" or "tool:NAME {json}": a call of the function
	// tool NAME (a client's dynamic tool) with those arguments.
	// "tool:NS/NAME" calls NAME in the namespace NS (an MCP server's
	// tool: tool:mcp__server/tool).
	toolRe = regexp.MustCompile(`(?i)\btool:([A-Za-z0-9_/-]+)(?:[ \t]+(\{.*\}))?`)
)

// decide picks the reply for a parsed /v1/responses body.
func (s *Server) decide(body responsesBody) plan {
	if p, ok := toolResultPlan(body.Input); ok {
		return p
	}
	text := prompt(body.Input)
	if p, ok := restoredPlan(text); ok {
		return p
	}
	words := map[string]bool{}
	for _, w := range wordRe.FindAllString(strings.ToLower(text), -1) {
		words[w] = true
	}
	echo := fmt.Sprintf("Echo: %s (%d input items, %d images)", text, len(body.Input), promptImages(body.Input))
	switch m, pm := bashRe.FindStringSubmatch(text), patchRe.FindStringSubmatch(text); {
	case words["error500"]:
		return plan{kind: "error500", status: http.StatusInternalServerError, errMsg: "fake: scripted server error"}
	case words["error400"]:
		return plan{kind: "error400", status: http.StatusBadRequest, errMsg: "fake: scripted bad request"}
	case words["down"]:
		return plan{kind: "down", down: true}
	case words["hang"]:
		return plan{kind: "hang", status: http.StatusOK, hang: true}
	case toolRe.MatchString(text):
		tm := toolRe.FindStringSubmatch(text)
		args := tm[2]
		if args == "" {
			args = "{}"
		}
		ns, name, ok := strings.Cut(tm[1], "/")
		if !ok {
			ns, name = "", tm[1]
		}
		return plan{kind: "tool", status: http.StatusOK, items: []item{{Type: "function_call", Namespace: ns, Name: name, Args: args}}}
	case m != nil && strings.TrimSpace(m[1]) != "":
		return callPlan("bash", strings.TrimSpace(m[1]))
	case pm != nil:
		return callPlan(strings.ToLower(pm[1]), applyPatch(strings.ToLower(pm[1]), pm[2]))
	case words["slow"]:
		chunks := make([]string, max(s.SlowChunks, 1))
		for i := range chunks {
			chunks[i] = fmt.Sprintf("slow chunk %02d. ", i)
		}
		return plan{kind: "slow", status: http.StatusOK, slow: true,
			items: []item{{Type: "message", Text: strings.Join(chunks, ""), Chunks: chunks}}}
	case words["flood"]:
		items := make([]item, max(s.FloodItems, 1))
		for i := range items {
			items[i] = item{Type: "message", Text: fmt.Sprintf("flood %05d: a short message of a flood turn.", i+1)}
		}
		return plan{kind: "flood", status: http.StatusOK, items: items}
	case words["think"]:
		return plan{kind: "think", status: http.StatusOK, items: []item{
			{Type: "reasoning", Text: "Let me think about this. The user wants a reply."},
			{Type: "message", Text: echo},
		}}
	}
	return textPlan("echo", echo)
}

func textPlan(kind, text string) plan {
	return plan{kind: kind, status: http.StatusOK, items: []item{{Type: "message", Text: text}}}
}

// callPlan is an exec_command call running cmd.
func callPlan(kind, cmd string) plan {
	args, _ := json.Marshal(map[string]string{"cmd": cmd})
	return plan{kind: kind, status: http.StatusOK, items: []item{{Type: "function_call", Name: "exec_command", Args: string(args)}}}
}

// applyPatch is the shell command that makes the CLI apply a patch: it
// reads apply_patch calls out of exec_command and reports them as file
// changes. "patch" adds file with the line "hello"; "edit" changes that
// line to "hello world".
func applyPatch(kind, file string) string {
	body := "*** Add File: " + file + "\n+hello\n"
	if kind == "edit" {
		body = "*** Update File: " + file + "\n@@\n-hello\n+hello world\n"
	}
	return "apply_patch <<'EOF'\n*** Begin Patch\n" + body + "*** End Patch\nEOF\n"
}

// HoldNext, printed by a tool, makes the request that sends its output
// hang (response.created, then nothing until the client leaves): a test
// sees the model asked again, and the turn cut there.
const HoldNext = "HOLD-NEXT-REQUEST"

// toolResultPlan answers a request whose input ends with tool outputs.
func toolResultPlan(input []Item) (plan, bool) {
	var outs []string
	for i := len(input) - 1; i >= 0; i-- {
		it := input[i]
		if it.Type != "function_call_output" && it.Type != "custom_tool_call_output" {
			break
		}
		outs = append([]string{commandOutput(it.OutputText())}, outs...)
	}
	if len(outs) == 0 {
		return plan{}, false
	}
	if strings.Contains(strings.Join(outs, "\n"), HoldNext) {
		return plan{kind: "hold", status: http.StatusOK, hang: true}, true
	}
	return textPlan("tool_result", fmt.Sprintf("Tool finished. Output: '%s'", strings.Join(outs, "', '"))), true
}

// commandOutput is what a command printed: the CLI reports it after an
// "Output:" line (agents.md §C), or, for other tools, as the whole text.
func commandOutput(s string) string {
	if _, after, ok := strings.Cut(s, "\nOutput:\n"); ok {
		return strings.TrimRight(after, "\n")
	}
	return strings.TrimRight(s, "\n")
}

// promptImages counts the images of the prompt's message.
func promptImages(input []Item) int {
	for i := len(input) - 1; i >= 0; i-- {
		it := input[i]
		if it.Role != "user" || isContext(strings.TrimSpace(it.Text())) {
			continue
		}
		n := 0
		for _, p := range it.Parts() {
			if p.Type == "input_image" {
				n++
			}
		}
		return n
	}
	return 0
}
