package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/internal/launch"
)

// argv is s's command behind bwrap, and the environment bwrap gets: the
// box's. bwrap passes its own environment on, so nothing of it shows in
// bwrap's command line, which every local user can read.
func (b *Box) argv(s launch.Spec) (argv, env []string, err error) {
	env = b.env(s)
	prog, err := b.program(s.Argv[0], lookup(env, "PATH"))
	if err != nil {
		return nil, nil, err
	}
	args := []string{b.o.Bwrap, "--unshare-all"}
	if b.o.Level == WorkspaceNet {
		args = append(args, "--share-net")
	}
	args = append(args, "--die-with-parent")
	if !s.PTY {
		// Off any terminal agentdesk has (TIOCSTI could type into it). A
		// PTY child keeps the terminal agentdesk made for it alone: its
		// shell needs it as its controlling terminal for job control.
		args = append(args, "--new-session")
	}
	args = append(args, "--cap-drop", "ALL")
	args = append(args, b.plan.sys...)
	if dir := filepath.Dir(prog); !b.shows(dir) {
		args = append(args, "--ro-bind", dir, dir)
	}
	args = append(args, b.plan.binds...)
	if b.runDir != "" {
		args = append(args, "--ro-bind", b.runDir, boxRun)
	}
	// The box's root holds the skeleton of the paths bound (the parents of
	// a work tree): read-only, like everything not bound writable.
	args = append(args, "--remount-ro", "/")
	dir := s.Dir
	if dir == "" {
		dir = b.o.Home
	}
	args = append(args, "--chdir", dir, "--")
	if len(b.plan.links) > 0 {
		args = append(args, "/bin/sh", "-c", b.bridgeScript(), "agentdesk-sandbox")
	}
	return append(append(args, prog), s.Argv[1:]...), env, nil
}

// program resolves name as the box will run it: a name without a slash in
// path, then any symlink (the link's directory may not be visible inside).
func (b *Box) program(name, path string) (string, error) {
	p := name
	if !strings.Contains(name, "/") {
		found, err := lookPath(name, path)
		if err != nil {
			return "", fmt.Errorf("start %s: %w", name, err)
		}
		p = found
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("start %s: %w", name, err)
	}
	if !filepath.IsAbs(real) {
		return "", fmt.Errorf("start %s: %w: the program's path must be absolute in a sandbox", name, launch.ErrInvalid)
	}
	if f := holds(filepath.Dir(real), b.o.Forbidden); f != "" {
		return "", fmt.Errorf("start %s: its directory holds %s: %w", name, f, ErrForbidden)
	}
	return real, nil
}

// shows reports whether dir is visible in the box without another bind.
func (b *Box) shows(dir string) bool {
	for _, v := range b.plan.visible {
		if dir == v || strings.HasPrefix(dir, v+"/") {
			return true
		}
	}
	return false
}

// lookPath is exec.LookPath in the PATH given.
func lookPath(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// bridgeScript starts socat on each bridge's port, waits until they all
// listen (read from the box's own /proc/net/tcp, builtins only), then
// becomes the program.
func (b *Box) bridgeScript() string {
	var sb strings.Builder
	sb.WriteString("up() { while read -r _ a _ st _; do [ \"$a\" = \"$1\" ] && [ \"$st\" = 0A ] && return 0; done </proc/net/tcp; return 1; }\n")
	for i, l := range b.plan.links {
		fmt.Fprintf(&sb, "%s TCP-LISTEN:%d,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:%s/%s 2>/dev/null &\n",
			shellQuote(b.o.Socat), l.port, boxRun, sockName(i))
	}
	for _, l := range b.plan.links {
		fmt.Fprintf(&sb, "n=0; until up 0100007F:%04X; do n=$((n+1)); if [ $n -gt 1000 ]; then echo 'agentdesk: the sandbox bridge did not start' >&2; exit 70; fi; sleep 0.01; done\n", l.port)
	}
	sb.WriteString(`exec "$@"`)
	return sb.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// program returns the pid of the program bwrap runs: the child of the
// box's init, bwrap's only child. 0 until both exist.
func program(root int) int {
	init := firstChild(root)
	if init == 0 {
		return 0
	}
	return firstChild(init)
}

func firstChild(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}
