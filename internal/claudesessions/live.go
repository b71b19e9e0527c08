package claudesessions

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// recentWrite is how recently a session file must have changed for a
// claude process in its directory to count as its writer.
const recentWrite = 10 * time.Second

// proc is one running process as /proc shows it.
type proc struct {
	args [][]byte
	cwd  string
}

// MarkLive sets Live on the sessions a claude process is writing now: one
// whose arguments name the session (--resume <id>, --session-id <id>), or
// a claude process running in the session's directory while its file
// changed within the last seconds (a new conversation names no id).
func MarkLive(sessions []Summary, procRoot string, now time.Time) {
	procs := claudeProcs(procRoot)
	for i := range sessions {
		s := &sessions[i]
		for _, p := range procs {
			if p.names(s.ID) || (p.cwd == s.Cwd && now.Sub(s.LastActivity) < recentWrite) {
				s.Live = true
				break
			}
		}
	}
}

func (p proc) names(id string) bool {
	for _, a := range p.args {
		if bytes.Contains(a, []byte(id)) {
			return true
		}
	}
	return false
}

// claudeProcs returns the processes whose command line runs claude.
func claudeProcs(procRoot string) []proc {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		dir := filepath.Join(procRoot, e.Name())
		cmd, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || len(cmd) == 0 {
			continue
		}
		args := bytes.Split(bytes.TrimRight(cmd, "\x00"), []byte{0})
		if !runsClaude(args) {
			continue
		}
		cwd, _ := os.Readlink(filepath.Join(dir, "cwd"))
		out = append(out, proc{args: args, cwd: cwd})
	}
	return out
}

// runsClaude reports whether a command line is the CLI: its program, or
// the script node runs, is named claude (or claude.exe, the native build).
func runsClaude(args [][]byte) bool {
	for i, a := range args {
		if i > 1 {
			break
		}
		base := filepath.Base(string(a))
		if base == "claude" || base == "claude.exe" || base == "cli.js" {
			return true
		}
	}
	return false
}
