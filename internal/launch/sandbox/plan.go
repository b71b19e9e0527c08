package sandbox

import (
	"fmt"
	"net"
	"net/url"
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

// endpoints turns each endpoint into the box's variables and, with
// Workspace, its bridge: the http ones a plain forward each, the https
// ones one CONNECT proxy for all. An http endpoint without a variable
// keeps its loopback address: its bridge listens on the same port in the
// box (numbered bridges skip those ports).
func (p *plan) endpoints(o Options) error {
	fixed, err := p.fixedLinks(o)
	if err != nil {
		return err
	}
	port := firstPort
	next := func() int {
		for fixed[port] {
			port++
		}
		port++
		return port - 1
	}
	var tunnel *link
	for _, e := range o.Endpoints {
		u, target, err := parseEndpoint(e)
		if err != nil {
			return err
		}
		switch {
		case o.Level == WorkspaceNet:
			p.setVar(e.Var, e.URL)
			p.view.Endpoints = append(p.view.Endpoints, e.URL)
		case u.Scheme == "https":
			if tunnel == nil {
				tunnel = &link{connect: true}
			}
			if !slices.Contains(tunnel.allow, target) {
				tunnel.allow = append(tunnel.allow, target)
			}
			p.setVar(e.Var, e.URL)
			p.view.Endpoints = append(p.view.Endpoints, e.URL+" (through agentdesk's proxy, "+target+" only)")
		case e.Var != "":
			l := link{port: next(), target: target}
			p.links = append(p.links, l)
			inside := *u
			inside.Host = net.JoinHostPort("127.0.0.1", strconv.Itoa(l.port))
			p.setVar(e.Var, inside.String())
			p.view.Endpoints = append(p.view.Endpoints, e.URL+" (through agentdesk's bridge, as "+inside.String()+")")
		}
	}
	if len(p.links) > 0 {
		// The plain bridges are on loopback: never through the proxy.
		p.env = append(p.env, "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost")
	}
	if tunnel != nil {
		tunnel.port = next()
		p.links = append(p.links, *tunnel)
		proxy := "http://127.0.0.1:" + strconv.Itoa(tunnel.port)
		p.env = append(p.env, "HTTPS_PROXY="+proxy, "https_proxy="+proxy)
	}
	return nil
}

// fixedLinks adds the bridges of the http endpoints without a variable
// (Workspace): each listens in the box on its own loopback port, so that
// the address a program has in its own config works unchanged. An http
// address off loopback cannot be kept (the box has loopback only). It
// returns the ports taken.
func (p *plan) fixedLinks(o Options) (map[int]bool, error) {
	taken := map[int]bool{}
	if o.Level != Workspace {
		return taken, nil
	}
	for _, e := range o.Endpoints {
		u, target, err := parseEndpoint(e)
		if err != nil {
			return nil, err
		}
		if e.Var != "" || u.Scheme != "http" {
			continue
		}
		if !loopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("sandbox endpoint %q: an http address off loopback cannot be reached from a box with loopback only; use https, or the level workspace+net", e.URL)
		}
		port, _ := strconv.Atoi(u.Port())
		if port == 0 {
			port = 80
		}
		if taken[port] {
			continue // the same port twice: one bridge
		}
		taken[port] = true
		p.links = append(p.links, link{port: port, target: target})
		p.view.Endpoints = append(p.view.Endpoints, e.URL+" (through agentdesk's bridge, at the same address in the box)")
	}
	return taken, nil
}

// setVar sets name=value in every process of the box; "" names none.
func (p *plan) setVar(name, value string) {
	if name != "" {
		p.env = append(p.env, name+"="+value)
	}
}

// loopbackHost reports whether host is where a bridge in the box listens:
// 127.0.0.1, or localhost.
func loopbackHost(host string) bool { return host == "127.0.0.1" || host == "localhost" }

// parseEndpoint checks an endpoint's URL and returns its host:port.
func parseEndpoint(e Endpoint) (*url.URL, string, error) {
	u, err := url.Parse(e.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, "", fmt.Errorf("sandbox endpoint %s=%q: not an http or https URL", e.Var, e.URL)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u, net.JoinHostPort(u.Hostname(), port), nil
}

func sockName(i int) string { return "bridge" + strconv.Itoa(i) + ".sock" }
