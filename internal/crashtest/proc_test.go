package crashtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

// procInfo identifies a process across pid reuse: its pid and start time.
type procInfo struct {
	pid   int
	start string
	comm  string
}

// stat reads /proc/<pid>/stat: parent, state, start time and name.
func stat(pid int) (ppid int, state, start, comm string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", "", "", false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < 0 {
		return 0, "", "", "", false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 20 {
		return 0, "", "", "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	// f[0] is field 3 (state), so field 22 (starttime) is f[19].
	return ppid, f[0], f[19], s[open+1 : end], true
}

// descendants lists every live process below root.
func descendants(root int) []procInfo {
	ents, _ := os.ReadDir("/proc")
	children := map[int][]procInfo{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, state, start, comm, ok := stat(pid)
		if !ok || state == "Z" {
			continue
		}
		children[ppid] = append(children[ppid], procInfo{pid: pid, start: start, comm: comm})
	}
	var out []procInfo
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// running reports whether the process still runs (not a zombie, not a
// new process reusing the pid).
func (p procInfo) running() bool {
	_, state, start, _, ok := stat(p.pid)
	return ok && state != "Z" && start == p.start
}

// survivors waits for the processes to go and returns those still running
// after the guard.
func survivors(ps []procInfo) []procInfo {
	deadline := time.Now().Add(guard)
	for {
		var left []procInfo
		for _, p := range ps {
			if p.running() {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killAll cleans up after a failed check, so the test leaves nothing behind.
func killAll(ps []procInfo) {
	for _, p := range ps {
		if p.running() {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}
