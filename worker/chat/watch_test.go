package chat

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/worker"
)

// otherClaude runs a process named claude with the conversation's id in
// its arguments, in cwd, as a terminal's claude would be; closing its
// stdin ends it.
func otherClaude(t *testing.T, cwd string) (stop func()) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nread x\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--resume", importConv)
	cmd.Dir = cwd
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			in.Close()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	return stop
}

func isNote(subtype string) func(frame) bool {
	return func(f frame) bool {
		return f.Type == "sdk-message" && strings.Contains(string(f.Raw), `"subtype":"`+subtype+`"`)
	}
}

// TestWatchWhileAnotherClaudeWrites adopts a conversation a claude process
// outside agentdesk is still writing: the chat refuses messages and
// starts no CLI, shows the lines the other process appends, and takes the
// conversation over once that process has ended.
func TestWatchWhileAnotherClaudeWrites(t *testing.T) {
	oldWatch, oldWriter := watchEvery, writerEvery
	watchEvery, writerEvery = 10*time.Millisecond, 20*time.Millisecond
	t.Cleanup(func() { watchEvery, writerEvery = oldWatch, oldWriter })
	cfg, cwd := t.TempDir(), t.TempDir()
	path := claude.SessionFilePath(cfg, cwd, importConv)
	writeSessionFile(t, path, terminalLines)
	stopOther := otherClaude(t, cwd)

	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	a := attach(t, h.rt, "")
	a.seenOrUntil(isNote("agentdesk_watching"))
	if err := h.rt.SendUser(t.Context(), "mine now?"); !errors.Is(err, worker.ErrConflict) {
		t.Fatalf("a message while another process writes: %v", err)
	}
	if !h.rt.Watching() {
		t.Fatal("Watching() is false while another process writes")
	}
	if _, err := h.rt.Capabilities(t.Context()); !errors.Is(err, worker.ErrConflict) {
		t.Fatalf("capabilities while another process writes: %v", err)
	}

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"written in the terminal later"},"uuid":"d0000000-0000-4000-8000-000000000001","entrypoint":"cli","sessionId":"` + importConv + `"}` + "\n")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	a.seenOrUntil(func(f frame) bool { return strings.Contains(string(f.Raw), "written in the terminal later") })

	stopOther()
	a.seenOrUntil(isNote("agentdesk_watch_ended"))
	send(t, h, "mine now")
	if args := h.args(); len(args) != 1 || !strings.Contains(args[0], "--resume "+importConv) {
		t.Fatalf("CLI args after the take-over: %q", args)
	}
	if n := strings.Count(rawList(a.frames), "written in the terminal later"); n != 1 {
		t.Fatalf("the appended line shows %d times", n)
	}
}
