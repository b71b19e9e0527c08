package crashtest

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

const (
	manyClients = 200
	// manyBytes stays under the 8 MiB a terminal keeps.
	manyBytes = 2_000_000
)

// TestManyClients attaches 200 sockets to one terminal that prints 2 MB.
// The producer completes, every client gets every byte in order (one that
// falls behind is closed and catches up exactly by its cursor), and the
// server's memory stays bounded.
func TestManyClients(t *testing.T) {
	s := startServer(t, t.TempDir())
	path, gate := floodTerminal(t, s, manyBytes)
	fast := make([]*streamSum, manyClients)
	var wg sync.WaitGroup
	for i := range fast {
		fast[i] = &streamSum{}
		c := s.dial(path)
		wg.Go(func() {
			fast[i].read(c)
			fast[i].follow(s, path)
		})
	}
	rss := watchRSS(s.cmd.Process.Pid)
	openGate(t, gate)
	wg.Wait()
	peak := rss.stop()
	want := fast[0]
	kicked := 0
	for i, f := range fast {
		if f.err != nil || !f.exited || f.sum() != want.sum() || f.end != want.end || f.start != 0 || f.gaps != 0 {
			t.Fatalf("client %d: err %v, exited %v, [%d, %d) sum %s, gaps %d; client 0: [0, %d) %s", i, f.err, f.exited, f.start, f.end, f.sum(), f.gaps, want.end, want.sum())
		}
		kicked += min(f.reconnects, 1)
	}
	if want.end < manyBytes {
		t.Fatalf("output ends at %d, want at least %d", want.end, manyBytes)
	}
	t.Logf("%d clients got %d bytes each (%d of them fell behind once and caught up); server peak RSS %d MiB",
		len(fast), want.end, kicked, peak>>20)
	if peak > 512<<20 {
		t.Errorf("server RSS reached %d MiB: memory is not bounded by the queues", peak>>20)
	}
	s.stop()
}

// floodTerminal creates a terminal that prints n bytes of "x" and a DONE
// line once the returned gate file exists, so every client is attached
// before the first byte. It returns the terminal's socket path.
func floodTerminal(t *testing.T, s *server, n int64) (path, gate string) {
	t.Helper()
	var sess struct{ ID string }
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`, 201, &sess)
	gate = t.TempDir() + "/go"
	cmd := fmt.Sprintf(`["/bin/sh","-c","while [ ! -e %s ]; do sleep 0.02; done; head -c %d /dev/zero | tr '\\0' x; echo; echo DONE"]`, gate, n)
	var term struct{ ID string }
	s.mustJSON("POST", "/api/sessions/"+sess.ID+"/workers", `{"kind":"terminal","command":`+cmd+`}`, 201, &term)
	return "/ws/sessions/" + sess.ID + "/workers/" + term.ID, gate
}

func openGate(t *testing.T, gate string) {
	t.Helper()
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}
