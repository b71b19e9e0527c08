package chat

import (
	"context"
	"errors"
)

// refresh ends an idle agent that runs with limits or servers that
// changed since it started, so that the next message starts one with
// them. The caller holds the sender's lock.
func (s *slot) refresh(idle bool) {
	if !idle || !s.prefs.takeStale() {
		return
	}
	p := s.retire()
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, closeTimeout)
	defer cancel()
	if err := p.Close(ctx); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Warn("end the agent for new limits", "err", err)
	}
	s.forget(p)
}
