package sandbox

import (
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
)

// always are the variables every process keeps: what a terminal and a
// program's output need, nothing about the user or the host.
var always = []string{"PATH", "TERM", "COLORTERM", "LANG", "LC_*", "TZ", "NO_COLOR"}

// defaultPath is PATH inside when the Spec has none.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// env is the box's environment for s: the Spec's variables that pass, then
// HOME and TMPDIR, then the plan's (Set, endpoints), a later entry
// replacing an earlier one. No AGENTDESK_* variable is ever in it.
func (b *Box) env(s launch.Spec) []string {
	base := s.Env
	if base == nil {
		base = os.Environ()
	}
	var kept []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if passes(name, always) || passes(name, b.o.Pass) {
			kept = append(kept, kv)
		}
	}
	extra := []string{"HOME=" + b.o.Home, "TMPDIR=/tmp"}
	if lookup(kept, "PATH") == "" {
		extra = append(extra, "PATH="+defaultPath)
	}
	return childproc.Env(kept, "", append(extra, b.plan.env...)...)
}

// passes reports whether name matches one of patterns ("NAME" or
// "PREFIX*").
func passes(name string, patterns []string) bool {
	for _, p := range patterns {
		if pre, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(name, pre) {
				return true
			}
		} else if name == p {
			return true
		}
	}
	return false
}

// lookup is key's value in env, the last entry winning.
func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
