package ptyagent_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/workertest"
)

const waitFor = 2 * time.Minute

// fakeClaude is a shell script standing in for the CLI: it prints its
// arguments and environment, draws a prompt box like the CLI's, and
// answers lines: "work" shows a spinner until Escape, "ask" a permission
// dialog until a key, "size" the terminal size, "exit N" exits, anything
// else is echoed as "You said: …".
const fakeClaude = `#!/bin/sh
echo "ARGS: $*"
echo "ENV: TERM=$TERM CONFIG=$CLAUDE_CONFIG_DIR"
echo "CWD: $(pwd)"
echo "SIZE: $(stty size)"
rule='────────────────────'
esc=$(printf '\033')
prompt() { printf '%s\r\n❯ \r\n%s\r\n' "$rule" "$rule"; }
busy() {
	old=$(stty -g)
	stty -icanon -echo min 0 time 1
	i=0
	while [ $i -lt 600 ]; do
		printf '\r✶ Working… (%ds · esc to interrupt)' "$i"
		c=$(dd bs=1 count=1 2>/dev/null)
		[ "$c" = "$esc" ] && break
		i=$((i+1))
	done
	stty "$old"
	printf '\r\033[2KInterrupted\r\n'
}
ask() {
	printf 'Do you want to proceed?\r\n❯ 1. Yes\r\n  2. No\r\n\r\nEsc to cancel\r\n'
	old=$(stty -g)
	stty -icanon -echo min 1 time 0
	c=$(dd bs=1 count=1 2>/dev/null)
	stty "$old"
	printf '\033[5A\033[J'
	if [ "$c" = "$esc" ]; then echo "Denied"; else echo "Answered"; fi
}
prompt
while IFS= read -r line; do
	case "$line" in
	exit*) exit "${line#exit }" ;;
	size) echo "SIZE: $(stty size)" ;;
	work) busy ;;
	ask) ask ;;
	*) printf 'You said: %s\r\n' "$line" ;;
	esac
	prompt
done
`

// writeScript writes an executable script into a temp dir.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func openStore(t *testing.T) *persist.Store {
	t.Helper()
	s, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// fixture is a pty-agent worker with a fake manager: reports apply to
// info, SetClaudeSession to session.
type fixture struct {
	store  *persist.Store
	cfg    worker.Config
	cwd    string
	home   string
	mu     sync.Mutex
	info   worker.Info
	sess   worker.Session
	setIDs []string
	// started counts ConversationStarted calls.
	started int
}

func newFixture(t *testing.T, claudePath string) *fixture {
	home := t.TempDir()
	f := &fixture{
		store: openStore(t), cwd: t.TempDir(), home: home,
		info: worker.Info{ID: "w1", SessionID: "s1", Kind: worker.KindPTYAgent},
		cfg: worker.Config{ClaudePath: claudePath, ChildEnv: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "TERM=dumb",
		}},
	}
	f.sess = worker.Session{ID: "s1", Cwd: f.cwd}
	return f
}

func (f *fixture) env(restored bool) worker.Env {
	f.mu.Lock()
	defer f.mu.Unlock()
	return worker.Env{
		Info: f.info, Session: f.sess, Store: f.store, Config: f.cfg,
		Log: slog.New(slog.DiscardHandler), Restored: restored,
		Report: workertest.Reporter{Mu: &f.mu, Info: &f.info},
		SetClaudeSession: func(id string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.sess.ClaudeSessionID = &id
			f.sess.ClaudeSessionStarted = false
			f.setIDs = append(f.setIDs, id)
		},
		ConversationStarted: func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.sess.ClaudeSessionStarted = true
			f.started++
		},
	}
}

func (f *fixture) snapshot() worker.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info
}

// start builds the runtime; the test stops it at cleanup.
func (f *fixture) start(t *testing.T, restored bool) *ptyagent.Runtime {
	t.Helper()
	rt, err := ptyagent.New(t.Context(), f.env(restored))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Stop(t.Context()) })
	return rt.(*ptyagent.Runtime)
}

// waitInfo polls the worker until cond holds.
func (f *fixture) waitInfo(t *testing.T, cond func(worker.Info) bool) worker.Info {
	t.Helper()
	var info worker.Info
	poll(t, func() bool { info = f.snapshot(); return cond(info) })
	return info
}

func activityIs(a worker.Activity) func(worker.Info) bool {
	return func(i worker.Info) bool { return i.Activity != nil && *i.Activity == a }
}

// poll checks cond until it holds, failing after waitFor.
func poll(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
}

// waitUpTo polls cond for at most d and reports whether it held.
func waitUpTo(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
	return true
}

// client is one attached stream's view: output bytes and control frames.
type client = ptytest.Client

func attach(t *testing.T, rt *ptyagent.Runtime, cursor string) *client {
	t.Helper()
	return ptytest.Attach(t, rt.Attach, cursor)
}

func hasText(s string) func(*client) bool { return func(c *client) bool { return c.Has(s) } }

// activities lists the states of the activity frames received, in order.
func activities(c *client) []string {
	var out []string
	for _, m := range c.Ctrl {
		if m["type"] == "activity" {
			s, _ := m["state"].(string)
			out = append(out, s)
		}
	}
	return out
}

func lastActivity(c *client) string {
	a := activities(c)
	if len(a) == 0 {
		return ""
	}
	return a[len(a)-1]
}
