package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
)

// fakeAgent is an agent runtime whose activity the test sets. It counts
// how many agents run at once per session, which must never exceed one.
type fakeAgent struct {
	mu       sync.Mutex
	activity worker.Activity
	cancels  int
	stopped  bool
	running  *atomic.Int32
	peak     *atomic.Int32
}

func (f *fakeAgent) Activity() worker.Activity {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.activity
}

func (f *fakeAgent) Cancel(context.Context) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels++
	f.activity = worker.ActivityIdle
	return true, nil
}

// Attach and HandleClient make fakeAgent a worker.Runtime; no test here
// opens its socket.
func (f *fakeAgent) Attach(context.Context, string) (*hub.Stream, error) {
	return nil, errors.New("fake agent: no socket")
}

func (f *fakeAgent) HandleClient(context.Context, []byte) (*hub.Stream, error) {
	return nil, errors.New("fake agent: no socket")
}

func (f *fakeAgent) Stop(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.stopped {
		f.stopped = true
		f.running.Add(-1)
	}
	return nil
}

type agentLab struct {
	mu      sync.Mutex
	agents  []*fakeAgent
	running atomic.Int32
	peak    atomic.Int32
}

func (l *agentLab) factory(_ context.Context, env worker.Env) (worker.Runtime, error) {
	n := l.running.Add(1)
	for {
		p := l.peak.Load()
		if n <= p || l.peak.CompareAndSwap(p, n) {
			break
		}
	}
	a := &fakeAgent{activity: worker.ActivityIdle, running: &l.running, peak: &l.peak}
	l.mu.Lock()
	l.agents = append(l.agents, a)
	l.mu.Unlock()
	env.Report.Running()
	return a, nil
}

func (l *agentLab) last() *fakeAgent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.agents[len(l.agents)-1]
}

func labEnv(t *testing.T) (*env, *agentLab) {
	lab := &agentLab{}
	e := newEnv(t, map[worker.Kind]worker.Factory{worker.KindSDK: lab.factory, worker.KindPTYAgent: lab.factory})
	return e, lab
}

func switchTo(e *env, sid, to string, force bool) answer {
	return e.do("POST", "/api/sessions/"+sid+"/switch", map[string]any{"to": to, "force": force})
}

func TestSwitchBusyAndForce(t *testing.T) {
	e, lab := labEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk"}).json(t, &s)
	sdkID := *s.ActiveAgentWorkerID

	if a := switchTo(e, s.ID, "sdk", false); a.status != 200 || !contains(a.body, sdkID) {
		t.Fatalf("switch to the active kind: %d %s", a.status, a.body)
	}
	lab.last().mu.Lock()
	lab.last().activity = worker.ActivityActive
	lab.last().mu.Unlock()
	busy := lab.last()
	if a := switchTo(e, s.ID, "pty-agent", false); a.status != http.StatusConflict || a.errCode(t) != "agent_busy" {
		t.Fatalf("switch while busy: %d %s", a.status, a.body)
	}
	a := switchTo(e, s.ID, "pty-agent", true)
	if a.status != 200 {
		t.Fatalf("forced switch: %d %s", a.status, a.body)
	}
	if busy.cancels != 1 || !busy.stopped {
		t.Fatalf("forced switch did not interrupt and stop the old agent: %+v", busy)
	}
	got, _ := e.mgr.Session(s.ID)
	if len(got.Workers) != 2 || got.Workers[0].Status != worker.StatusStopped || got.Workers[1].Kind != worker.KindPTYAgent {
		t.Fatalf("after switch: %+v", got.Workers)
	}
	// A second agent worker next to the driving one is refused.
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]string{"kind": "sdk"}); a.status != 409 || a.errCode(t) != "conflict" {
		t.Fatalf("second agent worker: %d %s", a.status, a.body)
	}
	if a := switchTo(e, s.ID, "terminal", false); a.status != 400 {
		t.Fatalf("switch to a terminal: %d", a.status)
	}
}

func TestSwitchSingleDriverUnderConcurrency(t *testing.T) {
	e, lab := labEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk"}).json(t, &s)
	var wg sync.WaitGroup
	for i := range 20 {
		to := []string{"pty-agent", "sdk"}[i%2]
		wg.Go(func() {
			if a := switchTo(e, s.ID, to, false); a.status != 200 {
				t.Errorf("switch to %s: %d %s", to, a.status, a.body)
			}
		})
	}
	wg.Wait()
	if p := lab.peak.Load(); p != 1 {
		t.Fatalf("%d agents ran at once", p)
	}
	got, _ := e.mgr.Session(s.ID)
	driving := 0
	for _, w := range got.Workers {
		if w.Status == worker.StatusRunning || w.Status == worker.StatusStarting {
			driving++
			if got.ActiveAgentWorkerID == nil || *got.ActiveAgentWorkerID != w.ID {
				t.Fatalf("running worker %s is not the session's active agent", w.ID)
			}
		}
	}
	if driving != 1 {
		t.Fatalf("%d agent workers drive the conversation", driving)
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
