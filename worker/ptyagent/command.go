package ptyagent

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/claude"
)

// defaultClaude is the CLI run when the server names none: found on PATH.
const defaultClaude = "claude"

func claudePath(cfg worker.Config) string {
	if cfg.ClaudePath != "" {
		return cfg.ClaudePath
	}
	return defaultClaude
}

// findClaude checks that path names an executable file, as exec would
// find it (a bare name is looked up on the server's PATH).
func findClaude(path string) error {
	_, err := exec.LookPath(path)
	return err
}

// isAbsent reports whether a start error means the binary is missing or
// not executable, rather than some other failure.
func isAbsent(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
}

// childEnv is the CLI's environment: the server's child environment with
// the quiet settings of claude-cli.md §2, the terminal type xterm.js
// emulates, and the configured CLAUDE_CONFIG_DIR.
func (r *Runtime) childEnv() []string {
	extra := []string{"TERM=xterm-256color"}
	if d := r.env.Config.ClaudeConfigDir; d != "" {
		extra = append(extra, "CLAUDE_CONFIG_DIR="+d)
	}
	return claude.ChildEnv(r.env.Config.ChildEnv, extra...)
}

// conversationArgs picks the conversation and returns the CLI's arguments.
// The session's conversation is resumed when it has a session file; an id
// without one (recorded, but no prompt was ever sent: the CLI writes the
// file only with the first message) is started fresh under the same id,
// since --resume of it would fail. A session without a conversation gets
// a new id, recorded before the CLI starts.
func (r *Runtime) conversationArgs(env []string) []string {
	var args []string
	if id := r.env.Session.ClaudeSessionID; id != nil && *id != "" {
		r.conv = *id
		if hasSessionFile(env, r.env.Session.Cwd, r.conv) {
			args = []string{"--resume", r.conv}
		} else {
			args = []string{"--session-id", r.conv}
		}
	} else {
		r.conv = uuid.Must(uuid.NewV7()).String()
		if r.env.SetClaudeSession != nil {
			r.env.SetClaudeSession(r.conv)
		}
		args = []string{"--session-id", r.conv}
	}
	if m := r.env.Info.Model; m != "" {
		args = append(args, "--model", m)
	}
	return args
}

// hasSessionFile reports whether the CLI keeps a session file for id
// started in cwd. When the config directory is unknown it answers true:
// --resume then reports a missing conversation itself.
func hasSessionFile(env []string, cwd, id string) bool {
	dir := lookupEnv(env, "CLAUDE_CONFIG_DIR")
	if dir == "" {
		home := lookupEnv(env, "HOME")
		if home == "" {
			return true
		}
		dir = filepath.Join(home, ".claude")
	}
	_, err := os.Stat(claude.SessionFilePath(dir, cwd, id))
	return err == nil
}

// lookupEnv returns key's value in env ("" when absent); the last entry wins.
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
