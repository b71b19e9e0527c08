package childproc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Signal sends sig to every process (own user's only, protected ones
// excepted) whose marker m matches, found by one scan of /proc, and
// returns how many it found. Each is signalled through a pidfd opened
// before its marker was checked again, as Kill does, so a reused pid is
// never signalled. Signal 0 only counts them.
func Signal(m Match, sig syscall.Signal) int {
	ts := find(m, protected())
	defer closeTargets(ts)
	if sig != 0 {
		for _, t := range ts {
			t.signal(sig)
		}
	}
	return len(ts)
}

// CPUTicks returns the CPU time (user + system, in clock ticks) used so
// far by the live processes whose marker m matches, leaving out the pid
// skip (the CLI itself, whose own timers tick while it waits). Between two
// calls the sum changes when a matched process ran, started or ended.
func CPUTicks(m Match, skip int) uint64 {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var sum uint64
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 || pid == skip || !marked(pid, m) {
			continue
		}
		sum += cpuOf(pid)
	}
	return sum
}

// FamilyCPUTicks is CPUTicks of the processes m matches and of root's
// descendants, which a program run in a sandbox has without the marker
// (its environment is the box's), leaving out the pid skip.
func FamilyCPUTicks(root Ident, m Match, skip int) uint64 {
	sum := CPUTicks(m, skip)
	if root.Pid == 0 {
		return sum
	}
	for _, d := range Descendants(root, nil) {
		if d.Pid != skip && !marked(d.Pid, m) {
			sum += cpuOf(d.Pid)
		}
	}
	return sum
}

// cpuOf reads utime + stime (fields 14 and 15 of /proc/<pid>/stat); 0
// when the process is gone.
func cpuOf(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseUint(string(f[11]), 10, 64)
	s, _ := strconv.ParseUint(string(f[12]), 10, 64)
	return u + s
}
