package pty_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
)

func TestEchoRoundTrip(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	p := start(t, l, "sh", "-c", `read line; echo "got:$line"`)
	st := attach(t, l, "")
	r := replay(t, st)
	if code, sig := p.ExitStatus(); code != -1 || sig != "" { // it waits for input
		t.Fatalf("before exit: %d %q", code, sig)
	}
	if _, err := p.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	live(t, st, r, func(r *received) bool { return r.has("got:hello") })
	waitDone(t, p)
	if code, sig := p.ExitStatus(); code != 0 || sig != "" {
		t.Fatalf("exit %d %q", code, sig)
	}
}

func TestTwoSubscribers(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	a, b := attach(t, l, ""), attach(t, l, "")
	p := start(t, l, "seq", "1", "20000")
	waitDone(t, p)
	end := l.End()
	want := stored(t, s, l, "w1", 0, end)
	for _, st := range []*hub.Stream{a, b} {
		r := replay(t, st)
		live(t, st, r, func(r *received) bool { return r.next >= end })
		if !bytes.Equal(r.out.Bytes(), want) {
			t.Fatalf("subscriber got %d bytes, stored %d", r.out.Len(), len(want))
		}
	}
	if !bytes.HasSuffix(want, []byte("19999\r\n20000\r\n")) {
		t.Fatalf("stored output ends %q", tail(string(want)))
	}
}

// TestAttachDuringOutput attaches again and again while a process writes,
// and checks that each client's replay plus live frames is exactly the
// stored output from where it started.
func TestAttachDuringOutput(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	p := start(t, l, "seq", "1", "200000")
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results []*received
		during  int
	)
	for i := 0; i < 60; i++ {
		select {
		case <-p.Done():
		default:
			during++
		}
		end := l.End()
		cursor := []string{"", "0", strconv.FormatInt(end/2, 10), strconv.FormatInt(end, 10), "999999999"}[i%5]
		// Where this client must start: the offset it asked for, or for
		// past the end, the end at some moment during Attach.
		want := map[int][2]int64{0: {0, 0}, 1: {0, 0}, 2: {end / 2, end / 2}, 3: {end, end}}[i%5]
		st := attach(t, l, cursor)
		if i%5 == 4 {
			want[0], want[1] = end, l.End()
		}
		wg.Go(func() {
			r := newReceived()
			err := st.Replay(r.add)
			for err == nil {
				f, ok := next(st)
				if !ok {
					break
				}
				err = r.add(f)
			}
			if r.first < want[0] || r.first > want[1] || len(r.ctrl) != 1 {
				t.Errorf("cursor %q: started at %d with %v, want in [%d, %d] with history-end only", cursor, r.first, r.ctrl, want[0], want[1])
			}
			if err != nil || st.Sub.Kicked() {
				t.Errorf("cursor %q: %v (kicked %v)", cursor, err, st.Sub.Kicked())
			}
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
		})
	}
	waitDone(t, p)
	l.Close() // ends the subscriptions: every reader stops at the end
	wg.Wait()
	end := l.End()
	all := stored(t, s, l, "w1", 0, end)
	for _, r := range results {
		if r.next != end || !bytes.Equal(r.out.Bytes(), all[r.first:]) {
			t.Fatalf("client from %d got %d bytes up to %d; stored end %d", r.first, r.out.Len(), r.next, end)
		}
	}
	t.Logf("%d attaches, %d while the process ran; %d bytes", len(results), during, end)
}

// next returns the next live frame, or false once the subscription ended
// and its queue is empty.
func next(st *hub.Stream) (f hub.Frame, ok bool) {
	f, err := st.Sub.Recv(context.Background())
	return f, err == nil
}

func TestOutputBeforeExitIsLogged(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	p := start(t, l, "seq", "1", "50000")
	var want bytes.Buffer
	for i := 1; i <= 50000; i++ {
		fmt.Fprintf(&want, "%d\r\n", i) // the terminal turns \n into \r\n
	}
	waitDone(t, p)
	if got := stored(t, s, l, "w1", 0, l.End()); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("logged %d bytes before Done, want %d", len(got), want.Len())
	}
}

func TestResize(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	p := start(t, l, "sh", "-c", `read a; stty size; read b; stty size`)
	st := attach(t, l, "")
	r := replay(t, st)
	if _, err := p.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	live(t, st, r, func(r *received) bool { return r.has("24 80\r\n") })
	if err := p.Resize(0, 50); err != nil { // ignored
		t.Fatal(err)
	}
	if err := p.Resize(100, 40); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	live(t, st, r, func(r *received) bool { return r.has("40 100\r\n") })
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		script string
		code   int
		signal string
	}{
		{"exit 0", 0, ""},
		{"exit 3", 3, ""},
		{"kill -TERM $$", -1, "SIGTERM"},
		{"kill -KILL $$", -1, "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			s := openStore(t, nil)
			p := start(t, openLog(t, s, "w1"), "sh", "-c", tt.script)
			waitDone(t, p)
			if code, sig := p.ExitStatus(); code != tt.code || sig != tt.signal {
				t.Fatalf("exit %d %q, want %d %q", code, sig, tt.code, tt.signal)
			}
		})
	}
}

var pidRE = regexp.MustCompile(`PID=(\d+)`)

func TestStopKillsSession(t *testing.T) {
	tests := []struct {
		name  string
		cmd   []string
		input string        // typed once the shell runs
		grace time.Duration // Stop's ctx; 0 for none
		exits bool          // the leader exits by itself
	}{
		{name: "interactive shell job", cmd: []string{"sh", "-i"}, input: "sleep 1000 & echo PID=$!\n"},
		{name: "interactive job ignores hup", cmd: []string{"sh", "-i"},
			input: "trap '' HUP TERM; sleep 1000 & echo PID=$!\n", grace: 200 * time.Millisecond},
		{name: "ignores hup and term", cmd: []string{"sh", "-c", `trap "" HUP TERM; sleep 1000 & echo PID=$!; wait`},
			grace: 200 * time.Millisecond},
		{name: "job outlives leader", cmd: []string{"sh", "-c", "sleep 1000 & echo PID=$!"}, exits: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t, nil)
			l := openLog(t, s, "w1")
			st := attach(t, l, "")
			p := start(t, l, tt.cmd...)
			r := replay(t, st)
			if tt.input != "" {
				if _, err := p.Write([]byte(tt.input)); err != nil {
					t.Fatal(err)
				}
			}
			live(t, st, r, func(r *received) bool { return pidRE.Match(r.out.Bytes()) })
			child, _ := strconv.Atoi(string(pidRE.FindSubmatch(r.out.Bytes())[1]))
			if tt.exits {
				waitDone(t, p) // the job holds the terminal; Done must not wait for it
			}
			ctx := t.Context()
			if tt.grace > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.grace)
				defer cancel()
			}
			if err := p.Stop(ctx); err != nil {
				t.Fatal(err)
			}
			if err := p.Stop(ctx); err != nil { // idempotent
				t.Fatal(err)
			}
			waitGone(t, p.Pid())
			waitGone(t, child)
		})
	}
}

func TestStartInvalid(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	for _, o := range []pty.Options{{Log: l}, {Command: []string{"sh"}}, {Command: []string{""}, Log: l}} {
		if _, err := pty.Start(o); err == nil {
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
	if _, err := pty.Start(pty.Options{Command: []string{"/nonexistent/x"}, Log: l}); err == nil {
		t.Error("Start of a missing program succeeded")
	}
}

func TestOnOutputAndKillSession(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	var mu sync.Mutex
	var seen bytes.Buffer
	p, err := pty.Start(pty.Options{
		Command: []string{"sh", "-c", "echo PID=$$; exec sleep 1000"}, Log: l,
		OnOutput: func(b []byte) { mu.Lock(); seen.Write(b); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	st := attach(t, l, "")
	r := replay(t, st)
	live(t, st, r, func(r *received) bool { return r.has("\n") })
	pty.KillSession(p.Pid()) // as a restarted server does with a recorded group
	waitDone(t, p)
	if code, sig := p.ExitStatus(); sig != "SIGKILL" {
		t.Fatalf("exit %d %q, want SIGKILL", code, sig)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen.String() != r.out.String() {
		t.Fatalf("OnOutput saw %q, log has %q", seen.String(), r.out.String())
	}
	if err := p.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
}
