package childproc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
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
// alive (not a zombie), this user's, started at id.Start in boot id.Boot,
// and not carrying another marker than id.Marker. A process that carries
// no marker at all verifies: a wrapper may have cleared its environment.
// A record without a start time never verifies, nor does one without a
// boot id (older versions) unless the process carries id.Marker; nor does
// this process, its own group or session, or an ancestor: a server
// started from a leftover terminal must not end itself.
func Verify(id Ident) bool {
	if id.Pid <= 1 || id.Start == 0 || protected()[id.Pid] {
		return false
	}
	return same(id)
}

// same is Verify without the protected check.
func same(id Ident) bool {
	st, ok := readStat(id.Pid)
	if !ok || st.state == 'Z' || st.start != id.Start || !ours(id.Pid) {
		return false
	}
	m, marked := markerOf(id.Pid)
	if id.Boot == "" {
		return marked && id.Marker != "" && m == id.Marker
	}
	if id.Boot != BootID() {
		return false
	}
	return !marked || id.Marker == "" || m == id.Marker
}

// ours reports whether pid runs as this process's user: /proc/<pid> is
// owned by its effective user (root for a process that cannot be traced,
// such as a set-user-ID program).
func ours(pid int) bool {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// BootID is the kernel's boot id ("" when it cannot be read): start times
// count from the boot, so an identity holds within one.
var BootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

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
