package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// cookieName names the cookie that holds the token after a login:
// agentdesk_ and 16 hex digits of a hash of the token. Browsers keep
// cookies by host, not by port, so two agentdesk instances on one host
// (two ports, two tokens) with one name would overwrite each other's
// cookie at every login; with a name per token each keeps its own, and
// instances that share a token share the cookie too. The hash says nothing
// the cookie's value does not. HttpOnly keeps it from page scripts;
// SameSite=Strict keeps other sites from riding on it.
func cookieName(token string) string {
	h := sha256.Sum256([]byte("agentdesk login cookie\x00" + token))
	return "agentdesk_" + hex.EncodeToString(h[:8])
}

// validToken compares in constant time, so the token cannot be guessed
// byte by byte from response timings.
func (s *Server) validToken(t string) bool {
	return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// requestToken returns the token a request carries: a Bearer header, else
// the login cookie of this server.
func (s *Server) requestToken(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		if t, ok := strings.CutPrefix(h, "Bearer "); ok {
			return strings.TrimSpace(t)
		}
		return ""
	}
	if c, err := r.Cookie(cookieName(s.token)); err == nil {
		return c.Value
	}
	return ""
}

// public lists what needs no authentication.
func public(r *http.Request) bool {
	p := r.URL.Path
	switch {
	case p == "/api/health" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		return true
	case p == "/api/login" && r.Method == http.MethodPost:
		return true
	}
	return !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/ws/") && p != "/api" && p != "/ws"
}

// requireAuth refuses every unauthenticated /api and /ws request with 401.
// A request with the token takes its connection out of the cap on
// unauthenticated connections.
func (s *Server) requireAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.validToken(s.requestToken(c.Request())) {
			trustConn(c.Request())
			return next(c)
		}
		if public(c.Request()) {
			return next(c)
		}
		return newError(http.StatusUnauthorized, wire.CodeUnauthorized,
			"authentication required: open the URL with ?token= printed at start-up, or send Authorization: Bearer <token>")
	}
}

// setCookie logs the client in. Its connection carried the token, so it
// leaves the unauthenticated count. The cookie is Secure over TLS and when
// the public URL is https (TLS ends at a proxy in front).
func (s *Server) setCookie(c echo.Context) {
	trustConn(c.Request())
	c.SetCookie(&http.Cookie{
		Name:     cookieName(s.token),
		Value:    s.token,
		Path:     "/",
		HttpOnly: true,
		Secure:   c.Request().TLS != nil || s.secureCookie,
		SameSite: http.SameSiteStrictMode,
		MaxAge:   400 * 24 * 3600,
	})
}

type loginRequest struct {
	Token string `json:"token"`
}

// login handles POST /api/login.
func (s *Server) login(c echo.Context) error {
	var req loginRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	if !s.validToken(req.Token) {
		return newError(http.StatusUnauthorized, wire.CodeUnauthorized, "wrong token: use the token printed at start-up or stored in the data dir's token file")
	}
	s.setCookie(c)
	return c.NoContent(http.StatusNoContent)
}
