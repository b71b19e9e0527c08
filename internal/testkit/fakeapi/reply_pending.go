package fakeapi

import (
	"encoding/json"
	"regexp"
	"strings"
)

// RestoredAllow is the sentence with which agentdesk's sdk worker carries
// an allow given after a server restart (worker/chat pending_text.go): the
// model is to run the tool again with the JSON input that follows it. The
// fake model does so.
const RestoredAllow = "I approve it now: run it again with exactly this input:"

var restoredToolRe = regexp.MustCompile(`while your (\w+) request was waiting`)

// restoredPlan calls the tool named in a restored allow again with its
// input.
func restoredPlan(last Message) (plan, bool) {
	text := last.Text()
	i := strings.Index(text, RestoredAllow)
	m := restoredToolRe.FindStringSubmatch(text)
	if i < 0 || m == nil {
		return plan{}, false
	}
	var input map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(text[i+len(RestoredAllow):])), &input); err != nil {
		return plan{}, false
	}
	return toolPlan("restored", "Running it again as approved.", m[1], input), true
}
