package toolbridge

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is agentdesk's own limit on one call when Options set
// none: long enough for a person to answer a form, short enough that a
// provider that hangs does not hold a turn for ever.
const DefaultTimeout = 10 * time.Minute

// ErrClosed is returned by a Provider's methods once it is gone.
var ErrClosed = errors.New("provider closed")

// ErrUnknownCall is returned by Answer for a call the provider does not
// hold (never routed to it, already answered, timed out or cancelled).
var ErrUnknownCall = errors.New("no such call waiting")

// Options configure a Registry.
type Options struct {
	// Timeout is how long a call waits for its provider; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// CheckScope, when set, refuses a registration for a scope that does
	// not exist (the caller's session ids); AllScopes is never checked.
	// Its error is shown to the provider as it is.
	CheckScope func(scope string) error
}

// Registry holds the connected providers, their tools, and the calls in
// flight. Safe for concurrent use; it starts no goroutine.
type Registry struct {
	timeout    time.Duration
	checkScope func(string) error

	mu        sync.Mutex
	order     uint64 // registration order: the newest registration wins
	providers map[*Provider]struct{}
	watchers  map[*Watch]struct{}
}

// New returns an empty Registry.
func New(o Options) *Registry {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return &Registry{
		timeout: o.Timeout, checkScope: o.CheckScope,
		providers: map[*Provider]struct{}{}, watchers: map[*Watch]struct{}{},
	}
}

// Timeout is how long a call waits for its provider.
func (r *Registry) Timeout() time.Duration { return r.timeout }

// pickLocked chooses the provider of tool for scope: a registration for
// the scope itself beats one for every scope, and among equals the newest
// registration wins (a tab that registers again when it is shown takes
// the calls from tabs in the background).
func (r *Registry) pickLocked(scope, tool string) *Provider {
	var best *Provider
	var bestRank [2]uint64
	for p := range r.providers {
		for _, s := range [...]string{scope, AllScopes} {
			g, ok := p.regs[s]
			if !ok || !g.has(tool) {
				continue
			}
			rank := [2]uint64{0, g.order}
			if s == scope && scope != AllScopes {
				rank[0] = 1
			}
			if best == nil || rank[0] > bestRank[0] || (rank[0] == bestRank[0] && rank[1] > bestRank[1]) {
				best, bestRank = p, rank
			}
		}
	}
	return best
}

// Tools lists the tools scope sees, by name, each from the provider a
// call would go to.
func (r *Registry) Tools(scope string) []Listed {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := map[string]bool{}
	for p := range r.providers {
		for _, s := range [...]string{scope, AllScopes} {
			if g := p.regs[s]; g != nil {
				for _, t := range g.tools {
					names[t.Name] = true
				}
			}
		}
	}
	out := make([]Listed, 0, len(names))
	for name := range names {
		p := r.pickLocked(scope, name)
		out = append(out, Listed{Tool: p.toolLocked(scope, name), Provider: p.name})
	}
	slices.SortFunc(out, func(a, b Listed) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Provider names who would answer a call of tool in scope, "" when no
// one would.
func (r *Registry) Provider(scope, tool string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.pickLocked(scope, tool); p != nil {
		return p.name
	}
	return ""
}

// Watch is a subscription to changes of the tools a scope sees.
type Watch struct {
	r     *Registry
	scope string
	c     chan struct{}
}

// Watch tells, on Changed, that the tools scope sees may have changed.
// Close it when done.
func (r *Registry) Watch(scope string) *Watch {
	w := &Watch{r: r, scope: scope, c: make(chan struct{}, 1)}
	r.mu.Lock()
	r.watchers[w] = struct{}{}
	r.mu.Unlock()
	return w
}

// Changed receives a value after one or more changes; it never closes.
func (w *Watch) Changed() <-chan struct{} { return w.c }

// Close ends the subscription.
func (w *Watch) Close() {
	w.r.mu.Lock()
	delete(w.r.watchers, w)
	w.r.mu.Unlock()
}

// changedLocked wakes the watchers of scope (of every scope for
// AllScopes).
func (r *Registry) changedLocked(scope string) {
	for w := range r.watchers {
		if scope == AllScopes || w.scope == scope {
			select {
			case w.c <- struct{}{}:
			default:
			}
		}
	}
}
