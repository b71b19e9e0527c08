package chat

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// The gap this import closes, with the real CLI: a chat turn in sdk
// worker A, then a turn typed in claude's own terminal UI (in a PTY, as a
// pty-agent worker runs it), then a new sdk worker B on the same
// conversation shows both turns and continues with the full context.
func TestRealImportAfterTerminalTurn(t *testing.T) {
	s := newReal(t)
	hA := s.harness(t, harnessOptions{})
	send(t, hA, "hello from the chat")
	a := attach(t, hA.rt, "")
	a.until(isResult)
	hA.stop()
	var aIDs []string // A's user and assistant messages, as A stored them
	for _, f := range a.frames {
		if f.stored() && (f.Message.Type == "user" || f.Message.Type == "assistant") {
			aIDs = append(aIDs, decodeImported(t, f).UUID)
		}
	}

	const typed = "typed in terminal zebra"
	s.terminalTurn(t, hA.conv, typed)

	hB := s.harness(t, harnessOptions{conv: hA.conv}) // a new worker: its own, empty log
	b := attach(t, hB.rt, "")
	b.seenOrUntil(isImportMarker)
	// A tab attached during the import got its batches as notices: read what B stored.
	b = attach(t, hB.rt, "")
	var got []string
	for _, f := range b.frames {
		if f.stored() {
			l := decodeImported(t, f)
			got = append(got, l.Type+":"+l.Source+":"+firstText(l))
		}
	}
	want := []string{
		"user:chat:hello from the chat",
		"assistant:chat:Echo: hello from the chat",
		"user:terminal:" + typed,
		"assistant:terminal:Echo: " + typed,
		"system::",
	}
	t.Logf("B shows:\n%s", strings.Join(got, "\n"))
	if len(got) != len(want) {
		t.Fatalf("B shows %d stored messages, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("message %d: %q, want prefix %q", i, got[i], want[i])
		}
	}
	if m := decodeImported(t, storedFrameAt(t, b.frames, 4)); m.Subtype != "agentdesk_imported" || m.Count != 4 {
		t.Errorf("marker %+v", m)
	}
	// One identity per message across the workers of the conversation
	// (issue 22, item 5): B's copies of A's turn keep A's uuids, the user
	// message's too (agentdesk gave it to the CLI).
	for i, id := range aIDs {
		if got := decodeImported(t, storedFrameAt(t, b.frames, i)).UUID; got != id {
			t.Errorf("imported message %d has uuid %q, A stored it as %q", i, got, id)
		}
	}
	if len(aIDs) != 2 {
		t.Errorf("A stored %d user and assistant messages, want 2", len(aIDs))
	}

	send(t, hB, "follow-up in the chat")
	b.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "follow-up in the chat") })
	req := s.lastRequest(t)
	ctx := allText(req)
	if req.SessionID() != hA.conv || !strings.Contains(ctx, typed) || !strings.Contains(ctx, "Echo: "+typed) ||
		!strings.Contains(ctx, "hello from the chat") {
		t.Errorf("B's request: session %q (want %q), context:\n%s", req.SessionID(), hA.conv, ctx)
	}
	sameFrames(t, storedOf(b.frames), storedFrames(t, hB.store))
}

// storedFrameAt returns the i-th stored frame of fs.
func storedFrameAt(t *testing.T, fs []frame, i int) frame {
	t.Helper()
	for _, f := range fs {
		if f.stored() {
			if i == 0 {
				return f
			}
			i--
		}
	}
	t.Fatalf("no stored frame %d", i)
	return frame{}
}

// firstText is the text a user or assistant line starts with.
func firstText(l importLine) string {
	var s string
	if json.Unmarshal(l.Message.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(l.Message.Content, &blocks)
	if len(blocks) > 0 {
		return blocks[0].Text
	}
	return ""
}

// terminalTurn resumes conv in claude's interactive UI in a PTY, types
// prompt, waits until the answer is in the session file, and quits with
// Ctrl-C twice.
func (s *realSetup) terminalTurn(t *testing.T, conv, prompt string) {
	t.Helper()
	seedInteractive(t, s.home, s.cwd)
	cmd := exec.Command(s.path, "--resume", conv)
	cmd.Dir, cmd.Env = s.cwd, s.api.ClaudeEnv(s.home)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 32, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	term := &ptyScreen{}
	var reading, waiting sync.WaitGroup
	reading.Go(func() { term.read(tty) })
	exited := make(chan error, 1)
	waiting.Go(func() { exited <- cmd.Wait() })
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its group: a no-op once all exited
		waiting.Wait()
		tty.Close()
		reading.Wait()
	}()

	term.waitFor(t, 0, "shift") // the mode line under the prompt: the input box is up
	word := prompt[strings.LastIndexByte(prompt, ' ')+1:]
	typeAndSee(t, tty, term, prompt, word)
	if _, err := tty.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	waitSessionAnswer(t, s, conv, prompt)
	mark := term.len()
	tty.Write([]byte("\x03"))
	term.waitFor(t, mark, "again") // "Press Ctrl-C again to exit"
	tty.Write([]byte("\x03"))
	select {
	case err := <-exited:
		if err != nil {
			t.Logf("interactive claude: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatalf("interactive claude did not exit; screen:\n%s", term.visible(0))
	}
}

// typeAndSee types text until word shows on the screen: keys sent while
// the UI is still drawing can be lost.
func typeAndSee(t *testing.T, tty *os.File, term *ptyScreen, text, word string) {
	t.Helper()
	for range 3 {
		mark := term.len()
		if _, err := tty.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
		if term.seen(mark, word, 5*time.Second) {
			return
		}
		tty.Write([]byte("\x15")) // Ctrl-U: clear what may have arrived
	}
	t.Fatalf("the typed text never showed; screen:\n%s", term.visible(0))
}

// waitSessionAnswer polls the session file until it holds the terminal
// UI's answer to prompt.
func waitSessionAnswer(t *testing.T, s *realSetup, conv, prompt string) {
	t.Helper()
	cfg := claude.ConfigDir(s.api.ClaudeEnv(s.home))
	tick := time.NewTicker(50 * time.Millisecond) // polling a file the CLI appends to
	defer tick.Stop()
	deadline := time.After(waitFor)
	for {
		if path, ok := claude.FindSessionFile(cfg, s.cwd, conv); ok {
			found := false
			_, err := claude.ScanSession(path, func(e claude.SessionEntry) error {
				found = found || e.Type == "assistant" && e.Entrypoint == claude.EntrypointCLI &&
					bytes.Contains(e.Message, []byte("Echo: "+prompt))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if found {
				return
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("no terminal answer in the session file; API requests: %d", len(s.api.MessageRequests()))
		}
	}
}

// seedInteractive writes the config that skips the interactive start-up
// dialogs (claude-cli.md §9) into the CLI's config dir.
func seedInteractive(t *testing.T, home, cwd string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{real: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
		"customApiKeyResponses":  map[string]any{"approved": []string{fakeapi.FakeKey}, "rejected": []string{}},
		"lastOnboardingVersion":  "2.1.330", "lastReleaseNotesSeen": "2.1.330",
		"officialMarketplaceAutoInstallAttempted": true, "theme": "dark",
	}
	b, _ := json.Marshal(cfg)
	dir := filepath.Join(home, ".claude")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// ptyScreen collects what the terminal UI writes. Safe for concurrent use.
type ptyScreen struct {
	mu      sync.Mutex
	out     []byte
	changed chan struct{} // closed and replaced on each read
}

func (p *ptyScreen) read(tty *os.File) {
	buf := make([]byte, 64<<10)
	for {
		n, err := tty.Read(buf)
		p.mu.Lock()
		p.out = append(p.out, buf[:n]...)
		if p.changed != nil {
			close(p.changed)
			p.changed = nil
		}
		p.mu.Unlock()
		if err != nil {
			return // EIO once the child is gone and the PTY closed
		}
	}
}

func (p *ptyScreen) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.out)
}

// ansi matches the escape sequences the UI draws with.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]`)

// visible is the output after byte from without escape sequences.
func (p *ptyScreen) visible(from int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ansi.ReplaceAllString(string(p.out[min(from, len(p.out)):]), "")
}

// seen reports whether word shows in the output after from within d. The
// UI places words with cursor moves, so look for one word.
func (p *ptyScreen) seen(from int, word string, d time.Duration) bool {
	deadline := time.After(d)
	for {
		p.mu.Lock()
		if p.changed == nil {
			p.changed = make(chan struct{})
		}
		ch := p.changed
		p.mu.Unlock()
		if strings.Contains(p.visible(from), word) {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
}

func (p *ptyScreen) waitFor(t *testing.T, from int, word string) {
	t.Helper()
	if !p.seen(from, word, waitFor) {
		t.Fatalf("%q never showed; screen:\n%s", word, p.visible(from))
	}
}
