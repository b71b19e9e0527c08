package worker

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits are an agent worker's limits and its addition to the system
// prompt, given to every agent process it starts (docs/api-extensions.md,
// "Per-session limits and prompt"). Zero values are no limit. A switch
// carries them to the next agent worker of the session.
type Limits struct {
	// AppendSystemPrompt is added to the end of the agent's own system
	// prompt.
	AppendSystemPrompt string `json:"appendSystemPrompt,omitempty"`
	// MaxTurns bounds the agent's turns (model requests) per user
	// message.
	MaxTurns int `json:"maxTurns,omitempty"`
	// MaxBudgetUSD bounds what the session's conversation may cost in
	// all, counted by agentdesk over every process it started (the stored
	// results' cost), not per process as the agent counts.
	MaxBudgetUSD float64 `json:"maxBudgetUsd,omitempty"`
	// DisallowedTools are tools (or rules such as Bash(rm *)) the agent
	// may not use; they beat AllowedTools.
	DisallowedTools []string `json:"disallowedTools,omitempty"`
	// AddDirs are directories besides the session's the agent may work
	// in.
	AddDirs []string `json:"addDirs,omitempty"`
}

// Bounds of the limits.
const (
	maxAppendPrompt = 32 << 10
	maxTurnsLimit   = 10000
	maxBudgetLimit  = 100000.0
	maxToolRules    = 100
	maxAddDirs      = 20
)

// toolRule is a tool name, optionally with a rule in parentheses:
// Read, mcp__agentdesk__notify, mcp__github__*, Bash(npm test *). Commas
// are refused: the list reaches the agent as one comma-separated value.
var toolRule = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_*-]{0,127}(\([^,\x00-\x1f]{1,200}\))?$`)

func (l Limits) clone() Limits {
	l.DisallowedTools = slices.Clone(l.DisallowedTools)
	l.AddDirs = slices.Clone(l.AddDirs)
	return l
}

// IsZero reports whether l sets nothing.
func (l Limits) IsZero() bool {
	return l.AppendSystemPrompt == "" && l.MaxTurns == 0 && l.MaxBudgetUSD == 0 && len(l.DisallowedTools) == 0 && len(l.AddDirs) == 0
}

// check validates l and returns it cleaned (directories made clean).
func (l Limits) check() (Limits, error) {
	if len(l.AppendSystemPrompt) > maxAppendPrompt || !utf8.ValidString(l.AppendSystemPrompt) || strings.ContainsRune(l.AppendSystemPrompt, 0) {
		return l, fieldErr("appendSystemPrompt", "must be UTF-8 text of at most %d KiB", maxAppendPrompt>>10)
	}
	if l.MaxTurns < 0 || l.MaxTurns > maxTurnsLimit {
		return l, fieldErr("maxTurns", "must be a whole number from 1 to %d (0 for no limit), got %d", maxTurnsLimit, l.MaxTurns)
	}
	if l.MaxBudgetUSD < 0 || l.MaxBudgetUSD > maxBudgetLimit || math.IsNaN(l.MaxBudgetUSD) {
		return l, fieldErr("maxBudgetUsd", "must be an amount in US dollars above 0 and at most %.0f (0 for no limit)", maxBudgetLimit)
	}
	if err := checkToolRules("disallowedTools", l.DisallowedTools); err != nil {
		return l, err
	}
	dirs, err := checkDirs(l.AddDirs)
	if err != nil {
		return l, err
	}
	l.AddDirs = dirs
	return l, nil
}

// checkToolRules validates a list of tool names or rules.
func checkToolRules(field string, rules []string) error {
	if len(rules) > maxToolRules {
		return fieldErr(field, "at most %d entries", maxToolRules)
	}
	for _, r := range rules {
		if !toolRule.MatchString(r) {
			return fieldErr(field, "%q is not a tool name or rule: write e.g. Bash, mcp__github__*, or Bash(npm test *) (no commas)", r)
		}
	}
	return nil
}

// checkDirs validates additional directories: absolute, existing, each
// once.
func checkDirs(dirs []string) ([]string, error) {
	if len(dirs) > maxAddDirs {
		return nil, fieldErr("addDirs", "at most %d directories", maxAddDirs)
	}
	var out []string
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return nil, fieldErr("addDirs", "%q must be an absolute path", d)
		}
		d = filepath.Clean(d)
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, fieldErr("addDirs", "%q is not an existing directory", d)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// LimitsSetter is an agent runtime that takes new limits and allowed
// tools (found by type assertion): its agent runs with them from its next
// start, and a runtime whose agent is idle starts it again before the
// next message.
type LimitsSetter interface {
	SetLimits(l Limits, allowedTools []string)
}
