package chat

import (
	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// What the CLI runs with (Worker.current): the model and permission mode
// its messages and answers report, whether the person chose them or the
// CLI's own settings did. Each change is reported to the manager before
// the line that told it is stored, so the Worker object says so no later
// than the chat does.

// noteInForce merges what the CLI reported into the worker's current
// settings and reports a change. It runs on the reader, in the agent's
// start and in ApplySettings.
func (r *Runtime) noteInForce(f agent.Settings) {
	r.mu.Lock()
	next := r.inForce.Merge(f)
	changed := next != r.inForce
	r.inForce = next
	r.mu.Unlock()
	if changed && r.env.Report != nil {
		r.env.Report.Current(worker.Current{Model: next.Model, PermissionMode: next.PermissionMode})
	}
}

// inForceOf is the worker's last reported settings, kept across restarts.
func inForceOf(i worker.Info) agent.Settings {
	if i.Current == nil {
		return agent.Settings{}
	}
	return agent.Settings{Model: i.Current.Model, PermissionMode: i.Current.PermissionMode}
}
