package ptyagent

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// Activity detection, all in one place: what the CLI's screen shows
// decides first, the rate of its output second.
//
//  1. asking: a dialog waits for the user (the permission prompt, the
//     AskUserQuestion picker, the trust and API-key dialogs): its footer
//     "Esc to cancel" is on one of the last lines with a dialog marker above.
//  2. active: the spinner line or "esc to interrupt" is near the bottom and
//     output still arrives (the spinner animates several times a second).
//  3. idle: the prompt box (a rule, then a line starting with ❯) is at the
//     bottom with no spinner.
//  4. Otherwise (a screen none of these patterns knows, e.g. another CLI
//     version or plain output outside the full-screen UI): active while the
//     output rate is at least ActiveRate, idle after QuietPeriod without
//     output, else unchanged.
//
// The screen is the CLI's current screen as a minimal terminal (screen.go)
// keeps it, not a stripped text stream: see screen for why.
const (
	// QuietPeriod is how long a screen of unknown shape must go without
	// output to count as idle. It is longer than RateWindow, so the rate
	// has decayed by then.
	QuietPeriod = 1500 * time.Millisecond
	// RateWindow is the span over which the output rate is measured.
	RateWindow = time.Second
	// ActiveRate is the number of runes drawn within RateWindow that means
	// the CLI is working: streaming text draws several hundred a second,
	// while typing and cursor blinking draw a few dozen.
	ActiveRate = 256
	// SpinnerStale is how long a spinner may stay on screen without any
	// output before it is no longer believed: the real one redraws every
	// ~100 ms, so a silent one is a leftover the screen model missed.
	SpinnerStale = 5 * time.Second

	// askFooterLines is how many of the last non-blank lines may hold a
	// dialog's footer; askMarkerLines how far up its marker may be.
	askFooterLines = 3
	askMarkerLines = 24
	// busyLines is how many of the last non-blank lines may hold the
	// spinner (it sits just above the prompt box, the status line below).
	busyLines = 10
	// promptLines is how many of the last non-blank lines may hold the
	// prompt box (rule, input lines, rule, status line).
	promptLines = 8
	// rateBuckets is the resolution of the rate window.
	rateBuckets = 10
)

var (
	// askFooters end a dialog that waits for an answer.
	askFooters = []string{"Esc to cancel"}
	// askMarkers say which kind of dialog it is (h_pty_*_dialog.txt,
	// h_pty_ask_user_question.txt).
	askMarkers = []string{
		"Do you want to proceed?", "Do you want to", "Enter to select", "Enter to confirm",
		"Type something.", "Chat about this", "Yes, I trust this folder",
	}
	// numberedOption is a highlighted first option: "❯ 1. Yes".
	numberedOption = regexp.MustCompile(`^\s*❯\s*1\.\s`)
	// busyMarkers show while a turn runs (the status line's hint).
	busyMarkers = []string{"esc to interrupt"}
	// spinnerLine is the spinner: a glyph, a verb and an ellipsis, e.g.
	// "✶ Flowing… (0s · ↓ 2 tokens)". The finished form, "✻ Baked for 0s
	// · done", has no ellipsis.
	spinnerLine = regexp.MustCompile(`^[^\p{L}\p{N}\s]\s\p{L}+…`)
	// promptLine is the input line of the prompt box.
	promptLine = regexp.MustCompile(`^❯(\s|$)`)
	// ruleLine is the box's top border.
	ruleLine = regexp.MustCompile(`^─{8,}$`)
)

// verdict is what a screen alone says.
type verdict int

const (
	screenUnknown verdict = iota
	screenAsking
	screenBusy
	screenPrompt
)

// classify reads a screen's lines (top to bottom).
func classify(lines []string) verdict {
	tail := lastNonBlank(lines, askMarkerLines)
	switch {
	case isAsking(tail):
		return screenAsking
	case isBusy(lastN(tail, busyLines)):
		return screenBusy
	case hasPrompt(lastN(tail, promptLines)):
		return screenPrompt
	}
	return screenUnknown
}

// ClassifyScreen returns the activity a rendered screen (text, one line per
// row) shows once its output has gone quiet: asking for a dialog, active
// for a spinner, else idle.
func ClassifyScreen(text string) worker.Activity {
	switch classify(strings.Split(text, "\n")) {
	case screenAsking:
		return worker.ActivityAsking
	case screenBusy:
		return worker.ActivityActive
	}
	return worker.ActivityIdle
}

func isAsking(tail []string) bool {
	footer := false
	for _, l := range lastN(tail, askFooterLines) {
		footer = footer || containsAny(l, askFooters)
	}
	if !footer {
		return false
	}
	for _, l := range tail {
		if containsAny(l, askMarkers) || numberedOption.MatchString(l) {
			return true
		}
	}
	return false
}

func isBusy(tail []string) bool {
	for _, l := range tail {
		t := strings.TrimSpace(l)
		if containsAny(strings.ToLower(t), busyMarkers) || spinnerLine.MatchString(t) {
			return true
		}
	}
	return false
}

func hasPrompt(tail []string) bool {
	for i := 1; i < len(tail); i++ {
		if ruleLine.MatchString(strings.TrimSpace(tail[i-1])) && promptLine.MatchString(tail[i]) {
			return true
		}
	}
	return false
}

// lastNonBlank returns up to n of the last lines that are not blank,
// trimmed of the no-break spaces the CLI pads with.
func lastNonBlank(lines []string, n int) []string {
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		l := strings.TrimRight(strings.ReplaceAll(lines[i], "\u00a0", " "), " \r")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func lastN(lines []string, n int) []string { return lines[max(len(lines)-n, 0):] }

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// detector turns output into an activity. All methods are safe for
// concurrent use: Write runs on the PTY reader, the rest on the runtime's
// activity goroutine and on callers of Resize and lines.
type detector struct {
	now func() time.Time

	mu      sync.Mutex
	scr     *screen
	dirty   bool // output since the last classification
	verdict verdict
	lastOut time.Time
	buckets [rateBuckets]bucket
	state   worker.Activity

	// The stall watchdog (stall.go): stallAfter 0 disables it; fp is the
	// screen's fingerprint, unchanged since fpSince.
	stallAfter time.Duration
	fp         string
	fpSince    time.Time
}

// bucket counts the runes drawn in one slice of the rate window.
type bucket struct {
	slot int64 // which slice of time: now / (RateWindow/rateBuckets)
	n    int
}

func newDetector(cols, rows int, now func() time.Time) *detector {
	return &detector{now: now, scr: newScreen(cols, rows), state: worker.ActivityIdle}
}

// Write feeds output. It only parses and counts; eval classifies.
func (d *detector) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	before := d.scr.printed
	_, _ = d.scr.Write(p)
	now := d.now()
	d.lastOut, d.dirty = now, true
	d.add(now, d.scr.printed-before)
	return len(p), nil
}

func (d *detector) add(now time.Time, n int) {
	slot := now.UnixNano() / int64(RateWindow/rateBuckets)
	b := &d.buckets[slot%rateBuckets]
	if b.slot != slot {
		*b = bucket{slot: slot}
	}
	b.n += n
}

// rate is the runes drawn in the RateWindow up to now.
func (d *detector) rate(now time.Time) int {
	slot := now.UnixNano() / int64(RateWindow/rateBuckets)
	total := 0
	for _, b := range d.buckets {
		if b.slot > slot-rateBuckets && b.slot <= slot {
			total += b.n
		}
	}
	return total
}

// eval decides the activity now. next is when time alone could change it
// (zero: only new output can), for the caller's timer.
func (d *detector) eval() (a worker.Activity, next time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	if d.dirty {
		lines := d.scr.lines()
		d.verdict, d.dirty = classify(lines), false
		d.noteScreen(lines, now)
	}
	quiet := now.Sub(d.lastOut)
	switch {
	case d.verdict == screenAsking:
		d.state = worker.ActivityAsking
	case d.verdict == screenBusy && quiet < SpinnerStale:
		d.state, next = worker.ActivityActive, d.lastOut.Add(SpinnerStale)
		if at := d.stallLocked(now); !at.IsZero() && at.Before(next) {
			next = at
		}
	case d.verdict == screenPrompt:
		d.state = worker.ActivityIdle
	case d.rate(now) >= ActiveRate:
		d.state, next = worker.ActivityActive, d.lastOut.Add(QuietPeriod)
	case quiet >= QuietPeriod:
		d.state = worker.ActivityIdle
	case d.state != worker.ActivityIdle:
		// A dialog that went away was answered: the CLI works on.
		d.state, next = worker.ActivityActive, d.lastOut.Add(QuietPeriod)
	}
	return d.state, next
}

// resize follows the terminal's size.
func (d *detector) resize(cols, rows int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.scr.resize(cols, rows)
	d.dirty = true
}

// lines returns the current screen.
func (d *detector) lines() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.scr.lines()
}
