package main

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// maxFloodTurns bounds how many flood turns catchup sends to fill a log.
const maxFloodTurns = 1000

// runCatchup fills one sdk worker's log with flood turns until it holds at
// least each size in --messages, then times fresh sockets from dial to
// history-end (whole history replayed), --repeat times; prints the median.
func runCatchup(ctx context.Context, c *client, cfg config) error {
	fmt.Println("scenario=catchup (dial to history-end, full replay, median of --repeat)")
	s, err := c.newSession(ctx, cfg.agent)
	if err != nil {
		return err
	}
	defer c.deleteSession(context.Background(), s.ID)
	wid := s.Workers[0].ID
	var stored uint64
	turns := 0
	for _, want := range cfg.messages {
		for ; stored < uint64(want); turns++ {
			if turns >= maxFloodTurns {
				return fmt.Errorf("still %d messages after %d turns: is FAKECLAUDE_FLOOD (or FAKEOPENAI_FLOOD) set?", stored, turns)
			}
			if stored, err = floodTurn(ctx, c, s.ID, wid); err != nil {
				return err
			}
		}
		if err := timeReplays(ctx, c, s.ID, wid, stored, cfg.repeat); err != nil {
			return err
		}
	}
	return nil
}

// floodTurn sends one message and waits for its result on one tab; it
// returns the last stored seq.
func floodTurn(ctx context.Context, c *client, sid, wid string) (uint64, error) {
	t := &sdkTab{c: c, sid: sid, wid: wid}
	if err := t.connect(ctx); err != nil {
		return 0, err
	}
	t.done = false // the replay holds earlier turns' results; wait for this one's
	if err := c.input(ctx, sid, wid, "flood"); err != nil {
		t.conn.CloseNow()
		return 0, err
	}
	if err := t.readTurn(ctx); err != nil {
		return 0, err
	}
	return t.lastSeq, nil
}

func timeReplays(ctx context.Context, c *client, sid, wid string, stored uint64, repeat int) error {
	var times []float64
	frames := 0
	for range repeat {
		start := time.Now()
		conn, err := c.dial(ctx, sid, wid, "")
		if err != nil {
			return err
		}
		n := 0
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				conn.CloseNow()
				return fmt.Errorf("replay: %w", err)
			}
			if bytes.HasPrefix(b, historyEnd) {
				break
			}
			n++
		}
		times = append(times, float64(time.Since(start))/float64(time.Millisecond))
		conn.CloseNow()
		frames = n
	}
	fmt.Printf("messages=%d frames=%d replay median=%.1fms min=%.1fms max=%.1fms (n=%d)\n",
		stored, frames, median(times), minOf(times), maxOf(times), repeat)
	return nil
}

func maxOf(fs []float64) float64 {
	m := fs[0]
	for _, f := range fs[1:] {
		m = max(m, f)
	}
	return m
}
