package worker

import (
	"slices"
	"strings"
)

// The agents a chat worker (kind sdk) can run: Info.Agent says which. ""
// is Claude (the API object then has no "agent"), AgentCodex is OpenAI's
// Codex. A Claude chat drives the session's conversation (with the
// terminal view, one at a time); a Codex chat has a conversation of its
// own (Info.ConversationID), so any session can have one beside Claude.
const AgentCodex = "codex"

// chatModes are the permission modes each agent's chat takes, in the
// order a picker lists them: Claude's modes, Codex's approval policies.
// "" (the agent's own default) is always allowed.
var chatModes = map[string][]string{
	"":         {"default", "acceptEdits", "plan", "bypassPermissions"},
	AgentCodex: {"untrusted", "on-request", "never"},
}

// chatAgent reads a request's agent for a chat: "" or "claude" is Claude,
// "codex" Codex.
func chatAgent(s string) (string, error) {
	switch s {
	case "", "claude":
		return "", nil
	case AgentCodex:
		return AgentCodex, nil
	}
	return "", fieldErr("agent", `must be "claude" or "codex", got %q`, s)
}

// checkMode refuses a permission mode the agent does not have.
func checkMode(agent, mode string) error {
	modes := chatModes[agent]
	if mode == "" || slices.Contains(modes, mode) {
		return nil
	}
	return fieldErr("permissionMode", "must be one of %s, got %q", strings.Join(modes, ", "), mode)
}

// DrivesClaudeConversation reports whether the worker drives the session's
// Claude conversation: a Claude chat or Claude's terminal view. One at a
// time does (Session.ActiveAgentWorkerID).
func (i Info) DrivesClaudeConversation() bool {
	return i.Kind == KindPTYAgent || (i.Kind == KindSDK && i.Agent == "")
}

// ownConversation makes a Codex chat's runtime see its own conversation
// where a chat looks for the session's: the id Codex gave its thread and
// whether a message went to it, recorded in the worker's record.
func ownConversation(m *Manager, env *Env, o origin) {
	sid, wid := env.Info.SessionID, env.Info.ID
	env.Session.ClaudeSessionID, env.Session.ClaudeSessionStarted = nil, env.Info.ConversationStarted
	if id := env.Info.ConversationID; id != "" {
		env.Session.ClaudeSessionID = &id
	}
	env.SetClaudeSession = func(id string) {
		if _, err := m.commitWorker(sid, wid, o, func(i *Info) { i.ConversationID, i.ConversationStarted = id, false }); err != nil {
			m.log.Error("record the chat's conversation", "worker", wid, "err", err)
		}
	}
	env.ConversationStarted = func() {
		if _, err := m.commitWorker(sid, wid, o, func(i *Info) { i.ConversationStarted = true }); err != nil {
			m.log.Error("record the chat's conversation started", "worker", wid, "err", err)
		}
	}
}
