package sandbox

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
)

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
