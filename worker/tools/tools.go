// Package tools is the tool bridge as a domain service: the registry of
// tool providers (internal/toolbridge) checked against the sessions, the
// provider sockets' peers, and agentdesk's own server-side tool, notify,
// which reaches the person by Web Push when no tab of agentdesk serves it
// (a tab that is open serves notify, ask_user and show itself).
//
// Goroutines: Start runs the built-in provider's until Close.
package tools

import (
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/worker"
)

// Provider is one connected provider (a socket's peer).
type Provider = toolbridge.Provider

// Listed is a tool a session sees, with its provider.
type Listed = toolbridge.Listed

// Sessions is what the service needs of the worker.Manager.
type Sessions interface {
	Session(id string) (worker.Session, error)
}

// Pusher reaches the person's subscribed browsers (worker/notify).
type Pusher interface {
	Message(sid, title, body string) (int, error)
}

// Options configure a Service.
type Options struct {
	// Sessions and Push may be given later with Attach (main builds the
	// registry before the manager, whose agents call it).
	Sessions Sessions
	Push     Pusher        // nil: push is off
	Timeout  time.Duration // a call's limit; 0: toolbridge.DefaultTimeout
	Log      *slog.Logger
}

// Service is the tool bridge of agentdesk's sessions. Safe for
// concurrent use.
type Service struct {
	reg      *toolbridge.Registry
	sessions Sessions
	push     Pusher
	log      *slog.Logger

	builtin *Provider
	wg      sync.WaitGroup
}

// Attach gives the service the sessions and the push sender once they
// exist; call it before Start and before any provider connects.
func (s *Service) Attach(sessions Sessions, push Pusher) {
	s.sessions, s.push = sessions, push
}

// New returns the service; Start starts its built-in provider.
func New(o Options) *Service {
	s := &Service{sessions: o.Sessions, push: o.Push, log: o.Log}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.reg = toolbridge.New(toolbridge.Options{Timeout: o.Timeout, CheckScope: s.checkSession})
	return s
}

// checkSession refuses tools for a session that does not exist.
func (s *Service) checkSession(sid string) error {
	if s.sessions == nil {
		return errors.New("agentdesk is still starting; connect again in a moment")
	}
	if _, err := s.sessions.Session(sid); err != nil {
		if errors.Is(err, worker.ErrNotFound) {
			return errors.New("no session " + sid + ` exists: give the id of an open session, or "*" for every session`)
		}
		return err
	}
	return nil
}

// Registry is the providers' registry, which the agents' drivers call.
func (s *Service) Registry() *toolbridge.Registry { return s.reg }

// Connect adds a provider (a socket); Close it when the socket ends.
func (s *Service) Connect() *Provider { return s.reg.Connect("") }

// Tools lists the tools session sid sees and who provides each.
func (s *Service) Tools(sid string) ([]Listed, error) {
	if _, err := s.sessions.Session(sid); err != nil {
		return nil, err
	}
	return s.reg.Tools(sid), nil
}
