package childproc

import (
	"bytes"
	"os"
	"strconv"
)

// Descendants is Snapshot.Descendants at the cost of the family alone: it
// reads /proc/<pid>/task/<tid>/children of each member instead of every
// process's stat, which matters when it runs every second on a machine
// with many processes. The kernel may miss a child forked during the
// read: a record taken again later finds it. Without those files
// (CONFIG_PROC_CHILDREN) it reads all of /proc.
func Descendants(root Ident, known []Ident) []Ident {
	if !hasChildren() {
		return Snap().Descendants(root, known)
	}
	boot := BootID()
	seen := map[int]bool{root.Pid: true}
	var out []Ident
	var queue []int
	if same(root) {
		queue = append(queue, root.Pid)
	}
	for _, k := range known {
		if st, ok := readStat(k.Pid); ok && !seen[k.Pid] && k.Boot == boot && st.start == k.Start && st.state != 'Z' {
			seen[k.Pid] = true
			out = append(out, Ident{Pid: k.Pid, Start: k.Start, Boot: boot})
			queue = append(queue, k.Pid)
		}
	}
	for len(queue) > 0 && len(out) < MaxFamily {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children(pid) {
			if st, ok := readStat(c); ok && !seen[c] && st.state != 'Z' {
				seen[c] = true
				out = append(out, Ident{Pid: c, Start: st.start, Boot: boot})
				queue = append(queue, c)
			}
		}
	}
	return out[:min(len(out), MaxFamily)]
}

// children lists the children of every thread of pid.
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// hasChildren reports whether the kernel has the children files.
func hasChildren() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	return err == nil
}

// Alive reports whether id names a live process (its pid, start time and,
// when recorded, boot), without the other checks of Verify.
func Alive(id Ident) bool {
	st, ok := readStat(id.Pid)
	return ok && st.state != 'Z' && st.start == id.Start && (id.Boot == "" || id.Boot == BootID())
}
