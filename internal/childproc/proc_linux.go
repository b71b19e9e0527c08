package childproc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxEnviron bounds how much of a process's environment is read.
const maxEnviron = 8 << 20

// maxAncestors bounds the walk up the parent chain.
const maxAncestors = 1024

// procStat is what agentdesk reads of /proc/<pid>/stat.
type procStat struct {
	state byte
	ppid  int
	start uint64
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid ... starttime".
// comm may hold spaces and parentheses, so fields are counted from the last
// ')': there the state is field 3 and the start time field 22.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, start: start}, true
}

func startTime(pid int) (uint64, error) {
	st, ok := readStat(pid)
	if !ok {
		return 0, errors.New("read /proc/" + strconv.Itoa(pid) + "/stat")
	}
	return st.start, nil
}

// markerOf returns the AGENTDESK_WORKER value in pid's environment. The
// environment of another user's process cannot be read (EACCES), and a
// zombie's is empty: neither ever has a marker.
func markerOf(pid int) (string, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	defer f.Close()
	env, err := io.ReadAll(io.LimitReader(f, maxEnviron))
	if err != nil {
		return "", false
	}
	prefix := []byte(MarkerVar + "=")
	for len(env) > 0 {
		kv := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			kv, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v), true
		}
	}
	return "", false
}

// Verify reports whether id still names the process it was recorded as:
// alive (not a zombie), started at id.Start, with id.Marker in its
// environment. A record without a start time or a marker never verifies,
// nor does this process, its own group or session, or an ancestor: a
// server started from a leftover terminal must not end itself.
func Verify(id Ident) bool {
	if id.Pid <= 1 || id.Start == 0 || id.Marker == "" || protected()[id.Pid] {
		return false
	}
	st, ok := readStat(id.Pid)
	if !ok || st.state == 'Z' || st.start != id.Start {
		return false
	}
	m, ok := markerOf(id.Pid)
	return ok && m == id.Marker
}

// protected is this process, its process group and session, and its
// ancestors: never signalled, whatever their marker says.
func protected() map[int]bool {
	self := os.Getpid()
	out := map[int]bool{self: true, syscall.Getpgrp(): true}
	if sid, err := unix.Getsid(0); err == nil {
		out[sid] = true
	}
	pid := self
	for range maxAncestors {
		st, ok := readStat(pid)
		if !ok || st.ppid <= 1 {
			break
		}
		pid = st.ppid
		out[pid] = true
	}
	return out
}
