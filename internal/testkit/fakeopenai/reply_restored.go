package fakeopenai

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// RestoredAllow is the sentence with which agentdesk's chat carries an
// allow given after a server restart (the engine's pending_text.go): the
// model is to run the tool again with the JSON input that follows it. The
// fake model does so: a Bash input's command with exec_command, a Write's
// file with apply_patch.
const RestoredAllow = "I approve it now: run it again with exactly this input:"

// restoredPlan calls the tool of a restored allow again with its input.
func restoredPlan(prompt string) (plan, bool) {
	i := strings.Index(prompt, RestoredAllow)
	if i < 0 {
		return plan{}, false
	}
	var in struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(prompt[i+len(RestoredAllow):])), &in); err != nil {
		return plan{}, false
	}
	switch {
	case in.Command != "":
		return callPlan("restored", in.Command), true
	case in.FilePath != "":
		var b strings.Builder
		b.WriteString("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + filepath.Base(in.FilePath) + "\n")
		for _, l := range strings.SplitAfter(strings.TrimSuffix(in.Content, "\n"), "\n") {
			b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
		}
		b.WriteString("*** End Patch\nEOF\n")
		return callPlan("restored", b.String()), true
	}
	return plan{}, false
}
