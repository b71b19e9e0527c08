package crashtest

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// flood is how many assistant lines the fake CLI prints per turn.
const flood = 400

// crashEnv is what the crashed server is started with: every turn floods,
// and the CLI starts a child (a tool it runs) in its process group.
var crashEnv = []string{"FAKECLAUDE_FLOOD=" + itoa(flood), "FAKECLAUDE_CHILD=1"}

// printLoop is a terminal that prints forever, so a kill lands mid-output.
var printLoop = `["/bin/sh","-c","i=0; while :; do i=$((i+1)); echo line $i; sleep 0.01; done"]`

func crashRounds() int {
	if os.Getenv("CI") == "true" {
		return 50
	}
	return 10
}

// TestCrashSafety SIGKILLs the server at random moments while an sdk
// worker floods messages and a terminal prints, restarts it on the same
// data dir and checks: it starts, every message a client received is
// stored at the seq it was received with, seqs run 1..N with no gap or
// duplicate, terminal offsets never go back, no child of the killed server
// survives the next start, and the conversation resumes.
func TestCrashSafety(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>7))
	data := t.TempDir()
	s := startServer(t, data, crashEnv...)
	w := createWorkers(t, s)
	var seen []message // every stored message clients received, in order
	var term termMarks
	var leftovers []procInfo
	for round := range crashRounds() {
		if round > 0 {
			s = startServer(t, data, crashEnv...)
			checkGone(t, round, leftovers)
			restartTerminal(t, s, w)
		}
		checkHistory(t, s, w, seen, 1+rng.IntN(700))
		sdk := recordSDK(s.dial("/ws" + w.sdkPath() + afterQuery(seen)))
		tr := recordTerm(s.dial("/ws" + w.termPath() + "?offset=" + itoa(int(term.received))))
		s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"round `+itoa(round)+`"}`, 202, nil)
		// The crash moment: anywhere from before the CLI starts to after
		// the turn ended.
		time.Sleep(time.Duration(rng.IntN(250)) * time.Millisecond)
		leftovers = descendants(s.cmd.Process.Pid)
		s.kill()
		sdk.close()
		tr.close()
		seen = appendSeen(t, seen, sdk)
		term.check(t, round, tr)
	}
	s = startServer(t, data, crashEnv...)
	checkGone(t, crashRounds(), leftovers)
	checkHistory(t, s, w, seen, 5000)
	checkResumes(t, s, w, seen)
	s.stop()
	t.Logf("%d rounds, %d messages received, terminal output up to offset %d; offsets skipped after crashes (lost bytes plus unused reservation): %d",
		crashRounds(), len(seen), term.received, term.lost)
}

func createWorkers(t *testing.T, s *server) ids {
	var sess struct {
		ID      string
		Workers []struct{ ID, Kind string }
	}
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"sdk"}`, 201, &sess)
	if len(sess.Workers) != 1 || sess.Workers[0].Kind != "sdk" {
		t.Fatalf("session workers: %+v", sess.Workers)
	}
	var term struct{ ID string }
	s.mustJSON("POST", "/api/sessions/"+sess.ID+"/workers", `{"kind":"terminal","command":`+printLoop+`}`, 201, &term)
	return ids{session: sess.ID, sdk: sess.Workers[0].ID, term: term.ID}
}

func afterQuery(seen []message) string {
	if len(seen) == 0 {
		return ""
	}
	return "?after=" + seen[len(seen)-1].UUID
}

// restartTerminal gives the terminal a new shell; its output continues at
// the next offset.
func restartTerminal(t *testing.T, s *server, w ids) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		code, b := s.api("POST", "/api"+w.termPath()+"/restart", "")
		if code == 200 {
			return
		}
		if code != 409 || time.Now().After(deadline) {
			t.Fatalf("restart terminal: %d %s", code, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// appendSeen adds what a client received in one round, checking that the
// seqs continue exactly where the previous rounds stopped.
func appendSeen(t *testing.T, seen []message, r *sdkRecorder) []message {
	t.Helper()
	msgs, _, _ := r.snapshot()
	for _, m := range msgs {
		if want := uint64(len(seen) + 1); m.Seq != want {
			t.Fatalf("client received seq %d (%s), want %d: a gap or a duplicate", m.Seq, m.Type, want)
		}
		seen = append(seen, m)
	}
	return seen
}

// checkHistory reads the whole history through REST in pages of limit and
// checks it against what clients received.
func checkHistory(t *testing.T, s *server, w ids, seen []message, limit int) {
	t.Helper()
	hist := s.history(w.sdkPath(), limit)
	uuids := make(map[string]bool, len(hist))
	for i, m := range hist {
		if m.Seq != uint64(i+1) {
			t.Fatalf("stored message %d has seq %d: a gap or a duplicate", i, m.Seq)
		}
		if m.UUID == "" || uuids[m.UUID] {
			t.Fatalf("stored message %d has uuid %q, empty or repeated", i, m.UUID)
		}
		uuids[m.UUID] = true
	}
	if len(hist) < len(seen) {
		t.Fatalf("%d messages stored, but clients received %d: committed messages lost", len(hist), len(seen))
	}
	for i, m := range seen {
		if hist[i].UUID != m.UUID {
			t.Fatalf("message seq %d: stored %s, a client received %s", i+1, hist[i].UUID, m.UUID)
		}
	}
}

// termMarks is what the terminal's clients know across rounds.
type termMarks struct {
	committed int64 // a history-end: the stored end at some attach
	received  int64 // the end of the output clients received
	lost      int64 // bytes clients saw that a crash took back
}

// check checks one round's terminal socket. Offsets never go back: a
// replay ends at or past every earlier history-end and past every byte a
// client received, and output runs from where the client asked. Live output
// is published before it is committed (internal/pty flushes every 20 ms),
// so a crash may lose the last bytes a client saw; their offsets are
// reserved beforehand and never reused (the replay marks the hole with a
// truncated frame). Lost bytes are counted.
func (m *termMarks) check(t *testing.T, round int, r *termRecorder) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		t.Fatalf("round %d: terminal output: %v", round, r.err)
	}
	if r.historyEnd < 0 {
		return // killed before the replay ended
	}
	if r.historyEnd < m.committed {
		t.Fatalf("round %d: history-end %d is before an earlier history-end %d: stored output went back", round, r.historyEnd, m.committed)
	}
	if r.historyEnd < m.received {
		t.Fatalf("round %d: history-end %d is before offset %d that a client received: offsets were reused", round, r.historyEnd, m.received)
	}
	if r.first >= 0 && r.first < m.received {
		t.Fatalf("round %d: output resumed at %d, before the %d asked for", round, r.first, m.received)
	}
	if r.first > m.received {
		m.lost += r.first - m.received // an upper bound: the hole includes unused reservation
	}
	m.committed = r.historyEnd
	m.received = max(r.end, r.historyEnd)
}

// checkGone fails when a process of the killed server still runs after
// the next start.
func checkGone(t *testing.T, round int, ps []procInfo) {
	t.Helper()
	if left := survivors(ps); len(left) > 0 {
		killAll(left)
		var names []string
		for _, p := range left {
			names = append(names, p.comm+"/"+itoa(p.pid))
		}
		t.Fatalf("round %d: children of the killed server still run after the next start: %s", round, strings.Join(names, ", "))
	}
}

// checkResumes sends a message after the last crash and waits for the
// whole turn: the CLI starts again (--resume) and answers.
func checkResumes(t *testing.T, s *server, w ids, seen []message) {
	t.Helper()
	r := recordSDK(s.dial("/ws" + w.sdkPath() + afterQuery(seen)))
	defer r.close()
	// The replay may hold the rest of the turn the last crash cut (stored,
	// never received), its result too: our message goes in only after the
	// replay ended, so the reply is what follows the user message it adds.
	if !r.waitFor(guard, func([]message, int, []string) bool { return r.saw("history-end") }) {
		t.Fatal("no history-end after the crash")
	}
	before, _, _ := r.snapshot()
	users := count(before, "user")
	s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"after the last crash"}`, 202, nil)
	ok := r.waitFor(guard, func(msgs []message, results int, errs []string) bool {
		return count(msgs, "user") > users && msgs[len(msgs)-1].Type == "result"
	})
	msgs, _, errs := r.snapshot()
	if !ok {
		t.Fatalf("no reply after the crash: %d messages, errors %v; stderr:\n%s", len(msgs), errs, s.stderr)
	}
	last := 0
	for i, m := range msgs {
		if m.Type == "user" {
			last = i
		}
	}
	if n := count(msgs[last:], "assistant"); n != flood {
		t.Fatalf("reply has %d assistant lines, want %d", n, flood)
	}
}

func count(msgs []message, typ string) int {
	n := 0
	for _, m := range msgs {
		if m.Type == typ {
			n++
		}
	}
	return n
}
