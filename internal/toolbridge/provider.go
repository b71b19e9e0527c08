package toolbridge

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// outboxLen bounds the frames waiting for one provider. A provider that
// lets this many pile up is not reading: it is dropped, and its calls end
// with an error, rather than holding turns.
const outboxLen = 256

// registration is one provider's tools for one scope.
type registration struct {
	tools []Tool
	order uint64
}

func (g *registration) has(name string) bool {
	if g == nil {
		return false
	}
	for _, t := range g.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// Provider is one connected provider: a tab, a page or a program. Its
// frames to send are read from Frames; what it says is given to Handle
// (frames.go) or to Register and Answer directly. Safe for concurrent use.
type Provider struct {
	r    *Registry
	out  chan []byte
	gone chan struct{}

	// guarded by r.mu
	name   string
	regs   map[string]*registration
	calls  map[string]*call
	closed bool
}

// Connect adds a provider named name (shown to the person with its
// tools; "" until it names itself).
func (r *Registry) Connect(name string) *Provider {
	p := &Provider{
		r: r, out: make(chan []byte, outboxLen), gone: make(chan struct{}),
		name: cleanName(name), regs: map[string]*registration{}, calls: map[string]*call{},
	}
	r.mu.Lock()
	r.providers[p] = struct{}{}
	r.mu.Unlock()
	return p
}

// cleanName makes a provider's name safe to show: one line, bounded,
// "a provider" when empty.
func cleanName(name string) string {
	name = strings.Join(strings.Fields(strings.ToValidUTF8(name, "")), " ")
	for len(name) > MaxProviderName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		return "a provider"
	}
	return name
}

// Frames are the frames to send to the provider, in order.
func (p *Provider) Frames() <-chan []byte { return p.out }

// Done is closed when the provider is gone.
func (p *Provider) Done() <-chan struct{} { return p.gone }

// Name is the provider's name.
func (p *Provider) Name() string {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	return p.name
}

// SetName renames the provider ("" keeps the name).
func (p *Provider) SetName(name string) {
	if name == "" {
		return
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	p.name = cleanName(name)
	for s := range p.regs {
		p.r.changedLocked(s)
	}
}

// Register sets the tools the provider serves in scope (AllScopes: every
// scope), replacing what it registered there before; no tools removes the
// registration. Registering again, even the same tools, makes this
// provider the one that gets the scope's calls of those tools.
func (p *Provider) Register(scope string, tools []Tool) ([]Tool, error) {
	if scope == "" {
		return nil, fmt.Errorf(`sessionId is required: a session's id, or "*" for every session`)
	}
	tools, err := checkTools(tools)
	if err != nil {
		return nil, err
	}
	if scope != AllScopes && p.r.checkScope != nil && len(tools) > 0 {
		if err := p.r.checkScope(scope); err != nil {
			return nil, err
		}
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	if len(tools) == 0 {
		delete(p.regs, scope)
	} else {
		p.r.order++
		p.regs[scope] = &registration{tools: tools, order: p.r.order}
	}
	p.r.changedLocked(scope)
	return tools, nil
}

// toolLocked returns the tool named name of scope's or every scope's
// registration, the scope's own first.
func (p *Provider) toolLocked(scope, name string) Tool {
	for _, s := range [...]string{scope, AllScopes} {
		if g := p.regs[s]; g != nil {
			for _, t := range g.tools {
				if t.Name == name {
					return t
				}
			}
		}
	}
	return Tool{}
}

// Close removes the provider: its tools go, and each call waiting for it
// ends with an error result. Safe to call more than once.
func (p *Provider) Close() {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	p.closeLocked("went away before answering (its tab closed or its program ended)")
}

func (p *Provider) closeLocked(why string) {
	if p.closed {
		return
	}
	p.closed = true
	delete(p.r.providers, p)
	for id, c := range p.calls {
		delete(p.calls, id)
		c.done <- ErrorResult(fmt.Sprintf("The tool %s failed: its provider, %s, %s.", c.tool, p.name, why))
	}
	for s := range p.regs {
		p.r.changedLocked(s)
	}
	close(p.gone)
}

// sendLocked queues a frame for the provider; a provider whose queue is
// full is not reading and is dropped.
func (p *Provider) sendLocked(frame []byte) bool {
	if p.closed {
		return false
	}
	select {
	case p.out <- frame:
		return true
	default:
		p.closeLocked("stopped reading its connection")
		return false
	}
}
