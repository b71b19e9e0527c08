package chat

import "sync"

// gate orders a Cancel against the write of a user message to the agent:
// a Cancel that comes first keeps the message from the agent, one that
// comes after interrupts the turn it began. Safe for concurrent use.
type gate struct {
	mu         sync.Mutex
	sending    bool // a stored user message is on its way to the agent
	cancelSend bool // Cancel came while sending: do not send it
}

// begin marks a stored message on its way to the agent (a Cancel then
// stops it there); end marks the end of that.
func (g *gate) begin() { g.set(true) }
func (g *gate) end()   { g.set(false) }

func (g *gate) set(on bool) {
	g.mu.Lock()
	g.sending, g.cancelSend = on, false
	g.mu.Unlock()
}

// cancelled reports whether a Cancel stopped the message on its way.
func (g *gate) cancelled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cancelSend
}

// pass runs write, the message's write to the agent, unless a Cancel came
// first (errSendCancelled); from its success on a Cancel interrupts the
// turn instead.
func (g *gate) pass(write func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancelSend {
		return errSendCancelled
	}
	if err := write(); err != nil {
		return err
	}
	g.sending = false
	return nil
}

// stop is a Cancel's hold of the gate until unlock: a message still on
// its way (sending) will not be written.
func (g *gate) stop() (sending bool, unlock func()) {
	g.mu.Lock()
	if g.sending {
		g.cancelSend = true
	}
	return g.sending, g.mu.Unlock
}
