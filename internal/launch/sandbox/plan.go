package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// plan is a Box's options turned into bwrap arguments, once.
type plan struct {
	sys     []string // the system, read-only, and the private mounts
	binds   []string // Home, Writable, ReadOnly, Protect
	visible []string // directories a program may be found in without a bind
	links   []link   // the bridges (Workspace)
	env     []string // what every process gets: Set, the endpoints' variables
	view    View
}

// link is one bridge: socat listens on 127.0.0.1:port in the box; the
// Box forwards to target, or with connect, tunnels CONNECTs to allow only.
type link struct {
	port    int
	target  string // host:port (plain)
	connect bool
	allow   []string // host:port (connect)
}

// firstPort is the box's loopback port of the first bridge; the next ones
// follow.
const firstPort = 41000

// boxRun is where the bridges' sockets are seen in the box.
const boxRun = "/run/agentdesk"

// View is what a box shows: the directories it reads and writes, what it
// hides, and its network. It is what the API lists for a sandboxed
// session.
type View struct {
	Level    Level    `json:"level"`
	ReadOnly []string `json:"readOnly"`
	Writable []string `json:"writable"`
	// Private are empty at start, the box's own and gone with it.
	Private []string `json:"private"`
	// Hidden are system paths masked because only their owner may read
	// them (root's secrets under /etc).
	Hidden []string `json:"hidden"`
	// Network is "loopback" (Workspace) or "host" (WorkspaceNet).
	Network string `json:"network"`
	// Endpoints are the services reached: through a bridge each with
	// loopback, or directly with the host's network.
	Endpoints []string `json:"endpoints"`
}

func makePlan(o Options) (plan, error) {
	var p plan
	p.view = View{Level: o.Level, Private: []string{"/tmp", "/run"}, Network: "loopback"}
	if o.Level == WorkspaceNet {
		p.view.Network = "host"
	}
	if err := p.system(); err != nil {
		return p, err
	}
	if err := p.bind(o); err != nil {
		return p, err
	}
	if err := p.endpoints(o); err != nil {
		return p, err
	}
	p.env = append(p.env, o.Set...)
	return p, nil
}

// system binds /usr and /etc read-only (the top-level links of a merged
// /usr as links), masks what only its owner may read under /etc, and
// gives the box its own /proc, /dev, /tmp and /run. /tmp comes first: a
// bind under it made before would be hidden.
func (p *plan) system() error {
	p.sys = []string{"--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"}
	p.visible = []string{"/usr"}
	p.view.ReadOnly = []string{"/usr"}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(d)
			if err != nil {
				return fmt.Errorf("sandbox: read %s: %w", d, err)
			}
			p.sys = append(p.sys, "--symlink", target, d)
		case fi.IsDir():
			p.sys = append(p.sys, "--ro-bind", d, d)
			p.visible = append(p.visible, d)
			p.view.ReadOnly = append(p.view.ReadOnly, d)
		}
	}
	p.sys = append(p.sys, "--ro-bind", "/etc", "/etc")
	p.view.ReadOnly = append(p.view.ReadOnly, "/etc")
	for _, m := range ownerOnly("/etc") {
		p.view.Hidden = append(p.view.Hidden, m.path)
		if m.dir {
			p.sys = append(p.sys, "--tmpfs", m.path, "--remount-ro", m.path)
		} else {
			p.sys = append(p.sys, "--ro-bind", "/dev/null", m.path)
		}
	}
	p.sys = append(p.sys, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/run")
	return nil
}

type masked struct {
	path string
	dir  bool
}

// ownerOnly lists the files and directories under root that others may
// not read (a directory: not enter), without looking inside such a
// directory. Those are secrets of their owner (/etc/shadow, host keys):
// when agentdesk runs as root, the box's root would read them.
func ownerOnly(root string) []masked {
	var out []masked
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if path == root {
			return nil
		}
		if err != nil { // unreadable: hidden all the more
			out = append(out, masked{path: path, dir: d != nil && d.IsDir()})
			return filepath.SkipDir
		}
		if d.Type()&os.ModeSymlink != 0 || !(d.IsDir() || d.Type().IsRegular()) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if d.IsDir() && fi.Mode().Perm()&0o005 != 0o005 {
			out = append(out, masked{path: path, dir: true})
			return filepath.SkipDir
		}
		if !d.IsDir() && fi.Mode().Perm()&0o004 == 0 {
			out = append(out, masked{path: path})
		}
		return nil
	})
	return out
}

// bind adds Home, Writable and ReadOnly, parents before what they hold so
// that no bind hides another, then Protect over them.
func (p *plan) bind(o Options) error {
	type mount struct {
		path string
		rw   bool
	}
	var ms []mount
	for _, d := range append([]string{o.Home}, o.Writable...) {
		ms = append(ms, mount{path: filepath.Clean(d), rw: true})
	}
	for _, d := range o.ReadOnly {
		ms = append(ms, mount{path: filepath.Clean(d)})
	}
	for _, m := range ms {
		if !filepath.IsAbs(m.path) {
			return fmt.Errorf("sandbox: %q is not an absolute path: %w", m.path, ErrForbidden)
		}
		if f := holds(m.path, o.Forbidden); f != "" {
			return fmt.Errorf("sandbox: %s holds %s: %w", m.path, f, ErrForbidden)
		}
	}
	slices.SortStableFunc(ms, func(a, b mount) int { return depth(a.path) - depth(b.path) })
	for _, m := range ms {
		flag := "--ro-bind"
		if m.rw {
			flag = "--bind"
			p.view.Writable = append(p.view.Writable, m.path)
		} else {
			p.view.ReadOnly = append(p.view.ReadOnly, m.path)
		}
		p.binds = append(p.binds, flag, m.path, m.path)
		p.visible = append(p.visible, m.path)
	}
	for _, d := range o.Protect {
		d = filepath.Clean(d)
		if _, err := os.Lstat(d); err != nil {
			continue
		}
		p.binds = append(p.binds, "--ro-bind", d, d)
		p.view.ReadOnly = append(p.view.ReadOnly, d)
	}
	return nil
}

// holds returns the first of forbidden that path is, or holds.
func holds(path string, forbidden []string) string {
	real := resolve(path)
	for _, f := range forbidden {
		f = resolve(f)
		if f == real || strings.HasPrefix(f, strings.TrimSuffix(real, "/")+"/") {
			return f
		}
	}
	return ""
}

// resolve is path with its symlinks resolved, as far as it exists.
func resolve(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

func depth(path string) int { return strings.Count(path, "/") }

func sockName(i int) string { return "bridge" + strconv.Itoa(i) + ".sock" }
