package ptyagent

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// recEvent is one line of a raw PTY recording (testdata/claude-cli/pty):
// output bytes (base64) or the input sent, with the activity a person
// saw on screen just before sending it.
type recEvent struct {
	T    float64 `json:"t"`
	Out  string  `json:"out"`
	In   *string `json:"in"`
	Want string  `json:"want"`
	data []byte
}

// loadRecording reads a recording from the module's testdata.
func loadRecording(t testing.TB, name string) []recEvent {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "claude-cli", "pty", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []recEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var e recEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.In == nil {
			if e.data, err = base64.StdEncoding.DecodeString(e.Out); err != nil {
				t.Fatal(err)
			}
		}
		evs = append(evs, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// fakeClock is a settable now.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }
func (c *fakeClock) set(sec float64) {
	c.t = time.Unix(1_700_000_000, 0).Add(time.Duration(sec * float64(time.Second)))
}
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestReplayRecordings feeds raw output of the real CLI through the
// detector on a fake clock at the recorded times, and checks the activity
// at every point where the recording person acted, and the order of the
// activities in between.
func TestReplayRecordings(t *testing.T) {
	tests := []struct {
		file  string
		trail []worker.Activity // the activities in order, repeats collapsed
	}{
		{"manual_mode.jsonl", []worker.Activity{
			idle, active, idle, // hello
			active, idle, // slow, then Escape
			active, asking, active, idle, // bash:touch f.txt, permission dialog, Enter
			active, asking, active, idle, // ask, the picker, Down Enter
		}},
		{"auto_mode.jsonl", []worker.Activity{
			idle, active, idle, // hello
			active, idle, // slow, then Escape
			active, idle, // think
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			clk := &fakeClock{}
			clk.set(0)
			d := newDetector(120, 32, clk.now)
			var trail []worker.Activity
			note := func(a worker.Activity) {
				if len(trail) == 0 || trail[len(trail)-1] != a {
					trail = append(trail, a)
				}
			}
			checked := 0
			for _, e := range loadRecording(t, tt.file) {
				clk.set(e.T)
				if e.In == nil {
					_, _ = d.Write(e.data)
				}
				a, _ := d.eval()
				note(a)
				if e.Want != "" {
					checked++
					if a != worker.Activity(e.Want) {
						t.Errorf("at %.3fs before sending %q: %s, want %s\n%s", e.T, *e.In, a, e.Want, strings.Join(d.lines(), "\n"))
					}
				}
			}
			if checked == 0 {
				t.Fatal("the recording has no expectations")
			}
			clk.advance(QuietPeriod)
			if a, _ := d.eval(); a != idle {
				t.Errorf("after the CLI exited and went quiet: %s", a)
			}
			if !slices.Equal(trail, tt.trail) {
				t.Errorf("activities %v\nwant       %v", trail, tt.trail)
			}
		})
	}
}

const (
	idle   = worker.ActivityIdle
	active = worker.ActivityActive
	asking = worker.ActivityAsking
)
