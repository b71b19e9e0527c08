// Package childproc owns what agentdesk's child processes have in common:
// the environment they are given (agentdesk's own settings removed, a
// marker added) and the way they are found and ended again, whatever
// session or process group they moved to.
//
// Every child agentdesk starts gets AGENTDESK_WORKER=<worker id>/<run id>
// in its environment. Descendants inherit it across setsid and setpgid, so
// scanning /proc/*/environ for it finds every process a worker left, and
// the random run id keeps the scan from ever naming a process of another
// run or another program. A program may clear its environment (a wrapper
// doing `exec env -i …`), so the marker is not the only way: a process is
// identified by pid, start time and boot id (Ident, Verify), and its
// descendants by the parent chain, taken while the parents live (Pin,
// Descendants). All functions are safe for concurrent use.
package childproc

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// MarkerVar is the environment variable holding a child's marker.
const MarkerVar = "AGENTDESK_WORKER"

// reservedPrefix names agentdesk's own settings and secrets
// (AGENTDESK_TOKEN...), which no child may see.
const reservedPrefix = "AGENTDESK_"

// Marker is the marker of workerID's children in run: "<worker id>/<run>".
func Marker(workerID, run string) string { return workerID + "/" + run }

// NewRun returns a new random run id (64 bits, hex).
func NewRun() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return hex.EncodeToString(b)
}

// runOf returns the run part of a marker.
func runOf(marker string) string {
	i := strings.LastIndexByte(marker, '/')
	if i < 0 {
		return ""
	}
	return marker[i+1:]
}

// Env builds a child's whole environment and is the only place that does:
// base without any AGENTDESK_* variable, then extra ("KEY=value", a later
// entry replacing an earlier one with the same key, from base too), then
// AGENTDESK_WORKER=marker unless marker is "". base is not modified.
func Env(base []string, marker string, extra ...string) []string {
	out := make([]string, 0, len(base)+len(extra)+1)
	index := make(map[string]int, cap(out))
	add := func(kv string) {
		key, _, _ := strings.Cut(kv, "=")
		if i, ok := index[key]; ok {
			out[i] = kv
			return
		}
		index[key] = len(out)
		out = append(out, kv)
	}
	for _, kv := range base {
		if !strings.HasPrefix(kv, reservedPrefix) {
			add(kv)
		}
	}
	for _, kv := range extra {
		add(kv)
	}
	if marker != "" {
		add(MarkerVar + "=" + marker)
	}
	return out
}
