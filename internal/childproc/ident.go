package childproc

import "time"

// DefaultGrace is how long End lets processes exit after SIGTERM before it
// sends SIGKILL.
const DefaultGrace = 3 * time.Second

// Ident identifies a process across pid reuse and reboots: the pid alone
// may name any process by the time it is read back. Pid, Start and Boot
// name one process; the marker is extra evidence, which a program started
// with a clean environment (a wrapper doing `exec env -i …`) no longer
// carries.
type Ident struct {
	Pid int
	// Start is the start time, in clock ticks after boot (/proc/<pid>/stat
	// field 22); 0 when it could not be read.
	Start uint64
	// Marker is the AGENTDESK_WORKER value the process was started with
	// ("" for none, or not known).
	Marker string
	// Boot is the kernel's boot id when Start was read, "" when unknown
	// (and in records of older versions).
	Boot string
}

// Identify returns the identity of pid, which was just started with marker
// and not yet waited for (so its pid cannot have been reused).
func Identify(pid int, marker string) Ident {
	start, err := startTime(pid)
	if err != nil {
		return Ident{Pid: pid, Marker: marker}
	}
	return Ident{Pid: pid, Start: start, Marker: marker, Boot: BootID()}
}

// Match selects processes by the marker in their environment.
type Match func(marker string) bool

// Exact matches the given markers only.
func Exact(markers ...string) Match {
	set := make(map[string]bool, len(markers))
	for _, m := range markers {
		if m != "" {
			set[m] = true
		}
	}
	return func(m string) bool { return set[m] }
}

// Runs matches the marker of any worker in the given runs.
func Runs(runs ...string) Match {
	set := make(map[string]bool, len(runs))
	for _, r := range runs {
		if r != "" {
			set[r] = true
		}
	}
	return func(m string) bool { return set[runOf(m)] }
}

// Either matches what a or b matches.
func Either(a, b Match) Match { return func(m string) bool { return a(m) || b(m) } }
