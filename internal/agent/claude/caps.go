package claude

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// initAnswer is the part of the CLI's initialize answer agentdesk uses
// (claude-cli.md §5: about 17 KB, most of it command descriptions).
type initAnswer struct {
	Models []struct {
		Value         string `json:"value"`
		DisplayName   string `json:"displayName"`
		Description   string `json:"description"`
		ResolvedModel string `json:"resolvedModel"`
	} `json:"models"`
	Commands []struct {
		Name         string `json:"name"`
		Description  string `json:"description"`
		ArgumentHint string `json:"argumentHint"`
	} `json:"commands"`
	CurrentPermissionMode string `json:"current_permission_mode"`
}

// parseCapabilities reads an initialize answer. A CLI that leaves a list
// out gets an empty one; an answer that cannot be read is the zero value
// (no lists at all), which the engine does not keep.
func parseCapabilities(raw json.RawMessage) (agent.Capabilities, error) {
	var a initAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return agent.Capabilities{}, fmt.Errorf("read claude's initialize answer: %w", err)
	}
	c := agent.Capabilities{
		Models:         make([]agent.Model, 0, len(a.Models)),
		Commands:       make([]agent.Command, 0, len(a.Commands)),
		PermissionMode: a.CurrentPermissionMode,
	}
	for _, m := range a.Models {
		c.Models = append(c.Models, agent.Model(m))
	}
	for _, cmd := range a.Commands {
		c.Commands = append(c.Commands, agent.Command(cmd))
	}
	return c, nil
}
