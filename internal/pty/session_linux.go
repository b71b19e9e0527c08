package pty

import (
	"bytes"
	"os"
	"strconv"
)

// sessionMembers lists the processes whose session id is sid, from /proc.
// Linux keeps a session id allocated while any member lives, so the list
// never names an unrelated process that reused the number.
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		if s, ok := statSession(stat); ok && s == sid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// statSession reads the session field of /proc/<pid>/stat: "pid (comm)
// state ppid pgrp session ...". comm may hold spaces and parentheses, so
// fields are counted from the last ')'.
func statSession(stat []byte) (int, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 4 {
		return 0, false
	}
	s, err := strconv.Atoi(string(f[3]))
	return s, err == nil
}
