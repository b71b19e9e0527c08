package server

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// originGuard refuses cross-site requests (an Origin that is neither ours
// nor allowed) and, on a loopback bind, requests whose Host is not a
// loopback name: the defence against DNS rebinding, where a foreign name
// resolves to 127.0.0.1 and the browser treats it as same-origin.
func (s *Server) originGuard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if s.loopback && !s.hostAllowed(r.Host) {
			return newError(http.StatusForbidden, wire.CodeForbidden, "host "+safeHost(r.Host)+" is not allowed; open agentdesk through localhost or 127.0.0.1")
		}
		if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o, r.Host) {
			return newError(http.StatusForbidden, wire.CodeForbidden, "cross-origin request refused; add the origin with --allowed-origins if you trust it")
		}
		return next(c)
	}
}

func (s *Server) hostAllowed(host string) bool {
	h := hostname(host)
	switch h {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	for _, o := range s.allowedOrigins {
		if strings.EqualFold(o.Hostname(), h) {
			return true
		}
	}
	return false
}

// originAllowed accepts our own origin (same scheme-less host:port as the
// request's Host) and the configured extra origins.
func (s *Server) originAllowed(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, host) && (u.Scheme == "http" || u.Scheme == "https") {
		return true
	}
	for _, o := range s.allowedOrigins {
		if strings.EqualFold(o.Scheme, u.Scheme) && strings.EqualFold(o.Host, u.Host) {
			return true
		}
	}
	return false
}

func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h)
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}

// safeHost keeps a hostile Host header from filling the answer.
func safeHost(h string) string {
	if len(h) > 64 {
		h = h[:64] + "…"
	}
	return strings.ToValidUTF8(h, "?")
}

// parseOrigins reads --allowed-origins: a comma-separated list of
// scheme://host[:port].
func parseOrigins(list []string) ([]*url.URL, error) {
	var out []*url.URL
	for _, o := range list {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, &originError{o}
		}
		out = append(out, u)
	}
	return out, nil
}

// parsePublicURL reads --public-url: scheme://host[:port], nil when empty.
func parsePublicURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(strings.TrimSuffix(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return nil, &publicURLError{raw}
	}
	return u, nil
}

type publicURLError struct{ url string }

func (e *publicURLError) Error() string {
	return "public URL " + e.url + " must look like https://host[:port], without a path"
}

type originError struct{ origin string }

func (e *originError) Error() string {
	return "allowed origin " + e.origin + " must look like https://host[:port]"
}
