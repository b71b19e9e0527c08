package ptyagent

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// TestClassifyRecordedScreens checks every screen recorded from the real
// CLI (testdata/claude-cli/h_pty_*.txt). A new recording without an
// expectation here fails the test.
func TestClassifyRecordedScreens(t *testing.T) {
	want := map[string]struct {
		v verdict
		a worker.Activity
	}{
		"h_pty_after_answers.txt":     {screenPrompt, idle},
		"h_pty_after_escape.txt":      {screenPrompt, idle}, // the prompt text is back in the box
		"h_pty_after_prompt.txt":      {screenPrompt, idle},
		"h_pty_api_key_dialog.txt":    {screenAsking, asking},
		"h_pty_ask_user_question.txt": {screenAsking, asking},
		"h_pty_exit.txt":              {screenUnknown, idle}, // back on the main screen after exit
		"h_pty_permission_dialog.txt": {screenAsking, asking},
		"h_pty_resumed_start.txt":     {screenPrompt, idle},
		"h_pty_trust_dialog.txt":      {screenAsking, asking},
		"h_pty_unseeded_home.txt":     {screenUnknown, idle}, // an error, then exit 1
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "claude-cli", "h_pty_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded screens: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectation for %s: add one", name)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if v := classify(strings.Split(string(b), "\n")); v != w.v {
				t.Errorf("verdict %d, want %d", v, w.v)
			}
			if a := ClassifyScreen(string(b)); a != w.a {
				t.Errorf("activity %s, want %s", a, w.a)
			}
		})
	}
	if len(files) != len(want) {
		t.Errorf("%d recorded screens, %d expectations", len(files), len(want))
	}
}

// Synthetic screens: the patterns and where on the screen they count.
func TestClassifyPatterns(t *testing.T) {
	rule := strings.Repeat("─", 40)
	prompt := []string{rule, "❯\u00a0", rule, "  ? for shortcuts"}
	tests := []struct {
		name  string
		lines []string
		want  verdict
	}{
		{"empty", nil, screenUnknown},
		{"prompt box", prompt, screenPrompt},
		{"prompt with text", []string{rule, "❯ fix the bug", rule, ""}, screenPrompt},
		{"spinner above the prompt", slices.Concat([]string{"✶ Flowing… (3s · ↓ 20 tokens)", ""}, prompt), screenBusy},
		{"esc to interrupt", []string{rule, "❯ ", rule, "  ⏵⏵ auto mode on · esc to interrupt"}, screenBusy},
		{"finished spinner", append([]string{"✻ Baked for 0s · done 3:25 PM"}, prompt...), screenPrompt},
		{"spinner far above", slices.Concat([]string{"✶ Flowing… (3s)"}, lines(12, "● text"), prompt), screenPrompt},
		{"permission dialog", []string{" Do you want to proceed?", " ❯ 1. Yes", "   2. No", "", " Esc to cancel · Tab to amend"}, screenAsking},
		{"numbered options only", []string{" Pick one", " ❯ 1. Yes", "   2. No", " Esc to cancel"}, screenAsking},
		{"picker", []string{"❯ 1. Red", "  3. Type something.", "  4. Chat about this", "Enter to select · Esc to cancel"}, screenAsking},
		{"footer without marker", []string{"something", "Esc to cancel"}, screenUnknown},
		{"dialog text in history only", append([]string{" Do you want to proceed?", " Esc to cancel"}, prompt...), screenPrompt},
		{"footer too far up", append([]string{" Do you want to proceed?", " Esc to cancel"}, lines(5, "● text")...), screenUnknown},
		{"history prompt line", []string{"❯ hello", "", "● Echo: hello"}, screenUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classify(tt.lines); got != tt.want {
				t.Errorf("verdict %d, want %d for\n%s", got, tt.want, strings.Join(tt.lines, "\n"))
			}
		})
	}
}

func lines(n int, s string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// Screens the detector steps below draw: plain lines written with CUP, so
// each replaces the whole screen.
func draw(ls ...string) []byte {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	for i, l := range ls {
		b.WriteString("\x1b[" + strconv.Itoa(i+1) + ";1H" + l)
	}
	return []byte(b.String())
}

// TestDetectorTransitions drives the detector on a fake clock: what the
// screen says, the output rate, the quiet period and the stale spinner.
func TestDetectorTransitions(t *testing.T) {
	rule := strings.Repeat("─", 40)
	prompt := draw(rule, "❯ ", rule)
	spinner := draw("✶ Working… (1s)", rule, "❯ ", rule)
	dialog := draw("Do you want to proceed?", "❯ 1. Yes", "  2. No", "Esc to cancel")
	plain := []byte("some plain output\r\n")
	burst := []byte(strings.Repeat("x", ActiveRate) + "\r\n")
	type step struct {
		at    time.Duration // since the start
		write []byte        // nil: only evaluate
		want  worker.Activity
		next  time.Duration // the deadline returned, since the start; -1 none
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"starts idle", []step{{0, nil, idle, -1}}},
		{"prompt is idle at once", []step{{0, prompt, idle, -1}, {time.Second, prompt, idle, -1}}},
		{"spinner is active until stale", []step{
			{0, spinner, active, SpinnerStale},
			{SpinnerStale - time.Millisecond, nil, active, SpinnerStale},
			{SpinnerStale, nil, idle, -1},
		}},
		{"spinner then prompt", []step{{0, spinner, active, SpinnerStale}, {100 * time.Millisecond, prompt, idle, -1}}},
		{"dialog asks, however long", []step{{0, spinner, active, SpinnerStale}, {time.Second, dialog, asking, -1}, {time.Hour, nil, asking, -1}}},
		{"answered dialog goes active, then idle when quiet", []step{
			{0, dialog, asking, -1},
			{time.Second, draw("running the tool"), active, time.Second + QuietPeriod},
			{time.Second + QuietPeriod, nil, idle, -1},
		}},
		{"slow unknown output stays idle", []step{
			{0, plain, idle, -1}, {200 * time.Millisecond, plain, idle, -1}, {400 * time.Millisecond, plain, idle, -1},
		}},
		{"fast unknown output is active until quiet", []step{
			{0, burst, active, QuietPeriod},
			{500 * time.Millisecond, plain, active, 500*time.Millisecond + QuietPeriod},
			{500*time.Millisecond + QuietPeriod - time.Millisecond, nil, active, 500*time.Millisecond + QuietPeriod},
			{500*time.Millisecond + QuietPeriod, nil, idle, -1},
		}},
		{"rate window slides", []step{
			{0, burst[:ActiveRate/2], idle, -1},
			{RateWindow + 100*time.Millisecond, burst[:ActiveRate/2], idle, -1},
			{RateWindow + 200*time.Millisecond, burst[:ActiveRate/2], active, RateWindow + 200*time.Millisecond + QuietPeriod},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &fakeClock{}
			clk.set(0)
			start := clk.t
			d := newDetector(80, 24, clk.now)
			for i, s := range tt.steps {
				clk.t = start.Add(s.at)
				if s.write != nil {
					_, _ = d.Write(s.write)
				}
				a, next := d.eval()
				wantNext := time.Time{}
				if s.next >= 0 {
					wantNext = start.Add(s.next)
				}
				if a != s.want || !next.Equal(wantNext) {
					t.Fatalf("step %d at %v: %s next %v, want %s next %v", i, s.at, a, next.Sub(start), s.want, s.next)
				}
			}
		})
	}
}
