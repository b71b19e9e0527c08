package ptyagent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/worker"
)

// MaxUserMessage is the largest message SendUser accepts, in bytes.
const MaxUserMessage = 256 << 10

// Keys written to the CLI's terminal.
const (
	keyEnter  = "\r"
	keyEscape = "\x1b"
	// The CLI turns on bracketed paste (DECSET 2004): text between these
	// arrives as one paste, newlines included, instead of as keystrokes.
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// SendUser types a user message into the CLI's prompt and presses Enter
// (the REST input endpoint). It is two writes back to back, the text then
// "\r": the CLI takes a lone "\r" as Enter, and when both arrive in one
// read it still submits (observed with 2.1.330), so no pause is needed.
// Text with line breaks or tabs goes in as a bracketed paste, so that a
// newline does not submit early and a tab does not complete; other control
// characters are dropped, so the message cannot press keys. Text a tab
// already typed into the prompt box goes along with it. While a turn
// runs the CLI queues the message; while it asks a question the message
// is refused with worker.ErrAgentBusy, since typed text would answer the
// dialog. Empty or oversized content fails with worker.ErrInvalid, a
// missing CLI with worker.ErrClaudeAbsent, an exited one with
// worker.ErrNotRunning. The writes may block while the CLI does not read
// its terminal; ctx is checked before, not during them.
func (r *Runtime) SendUser(ctx context.Context, content string) error {
	text := cleanText(content)
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("content is empty: %w", worker.ErrInvalid)
	}
	if len(content) > MaxUserMessage {
		return fmt.Errorf("content is %d bytes, more than %d: %w", len(content), MaxUserMessage, worker.ErrInvalid)
	}
	if err := r.term.Usable(); err != nil {
		return fmt.Errorf("send to claude: %w", err)
	}
	if r.Activity() == worker.ActivityAsking {
		return fmt.Errorf("claude is waiting for an answer in its terminal: %w", worker.ErrAgentBusy)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	p := r.term.Current()
	if _, err := p.Write([]byte(keystrokes(text))); err != nil {
		return fmt.Errorf("send to claude: %w", err)
	}
	if _, err := p.Write([]byte(keyEnter)); err != nil {
		return fmt.Errorf("send to claude: %w", err)
	}
	// The CLI writes its session file with the first prompt.
	r.markStarted()
	return nil
}

// cleanText is content with line breaks normalised, trailing ones dropped
// and other control characters removed.
func cleanText(content string) string {
	s := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(content)
	s = strings.TrimRight(s, "\n")
	return strings.Map(func(c rune) rune {
		if c == '\n' || c == '\t' {
			return c
		}
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return -1
		}
		return c
	}, s)
}

// keystrokes is clean text as written to the terminal: a bracketed paste
// when it spans lines or holds tabs.
func keystrokes(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		return pasteStart + s + pasteEnd
	}
	return s
}

// Cancel presses Escape when a turn runs or a dialog asks (the CLI then
// interrupts the turn, or dismisses the dialog as a "no") and reports
// true; when the CLI is idle or not running it does nothing and reports
// false, since Escape at the prompt would only clear what the user typed.
func (r *Runtime) Cancel(ctx context.Context) (bool, error) {
	if a := r.Activity(); a == worker.ActivityIdle || r.term.Usable() != nil {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if _, err := r.term.Current().Write([]byte(keyEscape)); err != nil {
		return false, fmt.Errorf("cancel claude: %w", err)
	}
	return true, nil
}
