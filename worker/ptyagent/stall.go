package ptyagent

import (
	"regexp"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// The stall watchdog of the pty-agent kind (docs/api-extensions.md, "Stall
// watchdog and escalating stop"). The CLI's spinner animates while a turn
// runs, wedged or not, so output alone says nothing: a turn is stalled
// when the screen has shown the working state, with nothing changed but
// the spinner's animation (its glyph, verb and elapsed time), for
// stallAfter. The spinner's token count is kept: tokens arriving are
// progress.

// tokenCount is the spinner's count of streamed tokens: "↓ 2 tokens",
// "↑ 1.2k tokens".
var tokenCount = regexp.MustCompile(`[↓↑]\s*[\d.,]+k?\s*tokens?`)

// fingerprint is the screen as the watchdog compares it: the spinner line
// reduced to its token count.
func fingerprint(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(strings.ReplaceAll(l, "\u00a0", " "))
		if spinnerLine.MatchString(t) {
			l = "spinner " + tokenCount.FindString(t)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// noteScreen records when the screen last changed, as fingerprint sees
// it. The caller holds d.mu.
func (d *detector) noteScreen(lines []string, now time.Time) {
	if fp := fingerprint(lines); fp != d.fp {
		d.fp, d.fpSince = fp, now
	}
}

// stallLocked turns an active state into stalled once the screen stayed
// the same for stallAfter, and returns the deadline at which it would
// (zero when none). The caller holds d.mu.
func (d *detector) stallLocked(now time.Time) time.Time {
	if d.stallAfter <= 0 || d.state != worker.ActivityActive {
		return time.Time{}
	}
	at := d.fpSince.Add(d.stallAfter)
	if now.Before(at) {
		return at
	}
	d.state = worker.ActivityStalled
	return time.Time{}
}
