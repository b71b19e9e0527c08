package chat

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// benchRuntime is a runtime on a real (fsync'ed) store, without a CLI.
func benchRuntime(b *testing.B) *Runtime {
	b.Helper()
	st, err := persist.Open(filepath.Join(b.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	conv := "00000000-0000-4000-8000-000000000000"
	r, err := newRuntime(worker.Env{
		Info:    worker.Info{ID: "w1", SessionID: "s1", Kind: worker.KindSDK},
		Session: worker.Session{ID: "s1", ClaudeSessionID: &conv},
		Store:   st,
	}, agenttest.New())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		r.Stop(context.Background())
		st.Close()
	})
	return r
}

// benchLine is an assistant line of typical size (about 600 bytes) with a
// short markdown text, whose uuid encodes i.
func benchLine(i int) agent.Event {
	id := benchUUID(i)
	raw := `{"type":"assistant","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-opus-5-5",` +
		`"content":[{"type":"text","text":"Line ` + strconv.Itoa(i) + `: I ran **the tests** and ` + "`go vet`" + `; all passed."}],` +
		`"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2560,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1},"context_management":null},` +
		`"parent_tool_use_id":null,"session_id":"00000000-0000-4000-8000-000000000000","uuid":"` + id + `","timestamp":"2026-11-22T12:00:00.000Z","request_id":"req_bench"}`
	return agent.Event{Kind: agent.KindMessage, Raw: []byte(raw), Type: "assistant", UUID: id}
}

// benchUUID is the uuid of benchLine(i).
func benchUUID(i int) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012x", i)
}

// lineIndex recovers i from the frame of benchLine(i): on a fresh log it
// has seq i+1, which leads the frame.
func lineIndex(frame []byte) int {
	const p = framePrefix + `"seq":`
	if !bytes.HasPrefix(frame, []byte(p)) {
		return -1
	}
	end := bytes.IndexByte(frame[len(p):], ',')
	if end < 0 {
		return -1
	}
	n, err := strconv.Atoi(string(frame[len(p) : len(p)+end]))
	if err != nil {
		return -1
	}
	return n - 1
}

// BenchmarkPipeline pushes b.N CLI lines through the pipeline (render,
// commit, publish) to 10 subscribers. "saturated" sends as fast as the
// pipeline takes them (msgs/s); "paced-20k" sends 20,000 lines a second in
// 1 ms bursts. Latency is from handing a line to the reader to a
// subscriber receiving its frame, over all 10 subscribers.
func BenchmarkPipeline(b *testing.B) {
	b.Run("saturated", func(b *testing.B) { benchPipeline(b, 0) })
	b.Run("paced-20k", func(b *testing.B) { benchPipeline(b, 20) })
}

func benchPipeline(b *testing.B, perMs int) {
	r := benchRuntime(b)
	const subs = 10
	n := b.N
	lines := make([]agent.Event, n)
	for i := range lines {
		lines[i] = benchLine(i)
	}
	sent := make([]time.Time, n)
	lat := make([][]time.Duration, subs)
	wakes := make([]int, subs) // each a socket writer's wake-up and write in the server
	var wg sync.WaitGroup
	kicked := make(chan int, subs)
	for s := range subs {
		sub, _ := r.journal.hub.Subscribe(n + 64) // measure the pipeline, not kicking
		wg.Go(func() {
			defer sub.Close()
			lat[s] = make([]time.Duration, 0, n)
			var batch []hub.Frame
			for got := 0; got < n; {
				select {
				case <-sub.Ready():
					batch = sub.Take(batch)
					if len(batch) > 0 {
						wakes[s]++
					}
					now := time.Now()
					for _, f := range batch {
						if i := lineIndex(f.Data); i >= 0 {
							lat[s] = append(lat[s], now.Sub(sent[i]))
							got++
						}
					}
				case <-sub.Done():
					kicked <- s
					return
				}
			}
		})
	}
	in := make(chan agent.Event, 256)
	var rd sync.WaitGroup
	rd.Go(func() { r.slot.in.consume(nil, batched(in)) })

	b.ResetTimer()
	start := time.Now()
	next := start
	for i := range n {
		if perMs > 0 && i%perMs == 0 {
			next = next.Add(time.Millisecond)
			time.Sleep(time.Until(next))
		}
		sent[i] = time.Now()
		in <- lines[i]
	}
	close(in)
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	rd.Wait()
	select {
	case s := <-kicked:
		b.Fatalf("subscriber %d was kicked", s)
	default:
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "msgs/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	total := 0
	for _, w := range wakes {
		total += w
	}
	b.ReportMetric(float64(total)/float64(subs), "wakes/sub")
}

// BenchmarkCatchUp10k replays 10,000 stored messages to one attachment,
// from Attach to the last frame (history-end and the tail included).
func BenchmarkCatchUp10k(b *testing.B) {
	const total = 10000
	r := benchRuntime(b)
	in := make(chan agent.Event, 256)
	var rd sync.WaitGroup
	rd.Go(func() { r.slot.in.consume(nil, batched(in)) })
	for i := range total {
		in <- benchLine(i)
	}
	close(in)
	rd.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for r.journal.published() < total {
		if time.Now().After(deadline) {
			b.Fatal("messages never published")
		}
		time.Sleep(time.Millisecond)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		st, err := r.Attach(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		err = st.Replay(func(hub.Frame) error { n++; return nil })
		st.Close()
		if err != nil || n < total+2 {
			b.Fatalf("replayed %d frames: %v", n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/replay")
}

// batched hands the events of in on as a driver does (agent.Conn.Events):
// every event waiting, at most 256, in one batch.
// It ends when in closes.
func batched(in <-chan agent.Event) <-chan []agent.Event {
	out := make(chan []agent.Event)
	go func() {
		defer close(out)
		for l := range in {
			batch := []agent.Event{l}
		more:
			for len(batch) < 256 {
				select {
				case l, ok := <-in:
					if !ok {
						break more
					}
					batch = append(batch, l)
				default:
					break more
				}
			}
			out <- batch
		}
	}()
	return out
}
