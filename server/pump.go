package server

import (
	"context"
	"errors"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// pump writes one socket's frames. Only its goroutine writes to the conn;
// the reader hands it error answers through out and fresh replays through
// streams.
type pump struct {
	conn    *socket
	out     chan hub.Frame
	streams chan *hub.Stream
	// coalesce is the current stream's, nil when its frames go as they are.
	coalesce func([]hub.Frame, []byte) (hub.Frame, int, []byte)
	// expand is the current stream's (hub.Stream.Expand), nil when the
	// client takes notices as they are (notices).
	expand  func(hub.Frame, func(hub.Frame) error) (bool, error)
	notices bool
	batch   []hub.Frame // the last batch taken, handed back to Take
	joined  []byte      // coalesce's buffer, reused
}

// handle runs in the reader goroutine for each client frame.
func (p *pump) handle(ctx context.Context, att worker.Runtime, data []byte) {
	if data == nil {
		p.reply(errorFrame(wire.CodeInvalidMessage, "binary frames are not accepted; send JSON text frames"))
		return
	}
	next, err := att.HandleClient(ctx, data)
	var ce *worker.CodeError
	switch {
	case errors.As(err, &ce):
		p.reply(errorFrame(ce.Code, sentence(ce.Error())))
	case err != nil && errors.Is(err, worker.ErrInvalid):
		p.reply(errorFrame(wire.CodeInvalidMessage, sentence(fromDomain(err).Message)))
	case err != nil:
		ae := fromDomain(err)
		p.reply(errorFrame(ae.Code, sentence(ae.Message)))
	case next != nil:
		select {
		case p.streams <- next:
		case <-ctx.Done():
			next.Close()
		}
	}
}

func (p *pump) reply(f hub.Frame) {
	select {
	case p.out <- f:
	default: // a client flooding bad frames loses some answers, not the socket
	}
}

// stream sends a replay then live frames; it returns a new stream when the
// client asked for one, nil when the socket is done.
func (p *pump) stream(ctx context.Context, st *hub.Stream) *hub.Stream {
	p.coalesce, p.expand = st.Coalesce, st.Expand
	if p.notices {
		p.expand = nil
	}
	p.conn.batch.Cork()
	err := st.Replay(p.send)
	if err := errors.Join(err, p.conn.batch.Uncork()); err != nil {
		return nil
	}
	return p.run(ctx, st.Sub)
}

// send sends f, or the frames it stands for (expand).
func (p *pump) send(f hub.Frame) error {
	if p.expand != nil {
		if done, err := p.expand(f, p.conn.send); done || err != nil {
			return err
		}
	}
	return p.conn.send(f)
}

// sendQueued sends every frame waiting on sub, as few socket writes.
func (p *pump) sendQueued(sub *hub.Sub) error {
	p.batch = sub.Take(p.batch)
	p.conn.batch.Cork()
	for frames := p.batch; len(frames) > 0; {
		f, n := frames[0], 1
		if p.coalesce != nil {
			f, n, p.joined = p.coalesce(frames, p.joined)
		}
		if err := p.send(f); err != nil {
			_ = p.conn.batch.Uncork()
			return err
		}
		frames = frames[n:]
	}
	return p.conn.batch.Uncork()
}

// run forwards live frames until the subscription or the socket ends.
func (p *pump) run(ctx context.Context, sub *hub.Sub) *hub.Stream {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-sub.Ready():
			if p.sendQueued(sub) != nil {
				return nil
			}
		case f := <-p.out:
			if p.conn.send(f) != nil {
				return nil
			}
		case next := <-p.streams:
			return next
		case <-sub.Done():
			p.finish(sub)
			return nil
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := p.conn.Ping(pctx)
			cancel()
			if err != nil {
				return nil
			}
		case <-ctx.Done():
			p.conn.Close(websocket.StatusGoingAway, "server shutting down")
			return nil
		}
	}
}

// finish ends a socket whose subscription ended: a slow client is told to
// reconnect and catch up; otherwise the frames still queued (an exit
// frame) are sent first.
func (p *pump) finish(sub *hub.Sub) {
	if sub.Kicked() {
		p.conn.Close(websocket.StatusTryAgainLater, "client too slow; reconnect with your cursor")
		return
	}
	if p.sendQueued(sub) != nil {
		return
	}
	p.conn.Close(websocket.StatusNormalClosure, "worker stopped")
}
