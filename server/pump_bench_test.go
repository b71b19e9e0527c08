package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// BenchmarkPumpFanout10 publishes b.N sdk-sized text frames (800 bytes) on
// a hub watched by 10 WebSocket clients over loopback, each served by the
// server's own pump (batched socket writes). ns/op is per published frame,
// until every client has received all of them; the clients run in this
// process, on the same cores.
func BenchmarkPumpFanout10(b *testing.B) {
	const clients = 10
	h := hub.New(0)
	var subs sync.WaitGroup
	subs.Add(clients)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := &batchWriter{ResponseWriter: w, timeout: writeTimeout}
		conn, err := websocket.Accept(bw, r, nil)
		if err != nil {
			return
		}
		defer conn.CloseNow()
		sock := &socket{Conn: conn, batch: bw.conn}
		sub, _ := h.Subscribe(b.N + 16) // measure throughput, not kicking
		defer sub.Close()
		subs.Done()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go clientFrames(ctx, cancel, sock, func([]byte) {})
		p := pump{conn: sock, out: make(chan hub.Frame, 1), streams: make(chan *hub.Stream, 1)}
		p.run(ctx, sub)
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	var conns []*websocket.Conn
	for range clients {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseNow()
		conns = append(conns, c)
	}
	subs.Wait()
	frame := hub.Frame{Data: bytes.Repeat([]byte("x"), 800)}
	b.SetBytes(int64(len(frame.Data)))
	b.ResetTimer()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	got := make([]atomic.Int64, clients)
	for i, c := range conns {
		defer context.AfterFunc(ctx, func() { c.CloseNow() })()
		wg.Go(func() {
			// A reused buffer and no per-message context: the clients
			// share the cores with the server they measure.
			buf := make([]byte, 4096)
			for range b.N {
				_, r, err := c.Reader(context.Background())
				if err == nil {
					_, err = io.CopyBuffer(io.Discard, r, buf)
				}
				if err != nil {
					errs <- err
					return
				}
				got[i].Add(1)
			}
		})
	}
	for i := range b.N {
		// Stay within the hub's byte bound: a client kicked for being
		// slow would end the run.
		for int64(i)-slowest(got) > ahead && ctx.Err() == nil {
			time.Sleep(50 * time.Microsecond)
		}
		h.Publish(uint64(i+1), frame)
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	h.Close()
}

// ahead is how many frames the publisher may run ahead of the slowest
// client: well inside the hub's queue bounds.
const ahead = 2000

func slowest(got []atomic.Int64) int64 {
	m := got[0].Load()
	for i := range got[1:] {
		m = min(m, got[i+1].Load())
	}
	return m
}
