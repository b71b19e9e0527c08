package childproc_test

import (
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestEnvScrubsAgentdeskVariables: no AGENTDESK_* variable of the server
// (the token above all) reaches a child; the marker is added when asked
// for; extra entries replace base ones.
func TestEnvScrubsAgentdeskVariables(t *testing.T) {
	base := []string{
		"PATH=/bin", "AGENTDESK_TOKEN=secret", "TERM=dumb",
		"AGENTDESK_WORKER=outer/run", "AGENTDESK_DATA_DIR=/x", "HOME=/h",
	}
	orig := slices.Clone(base)
	got := childproc.Env(base, "w1/r1", "TERM=xterm-256color", "NEW=1")
	want := []string{"PATH=/bin", "TERM=xterm-256color", "HOME=/h", "NEW=1", "AGENTDESK_WORKER=w1/r1"}
	if !slices.Equal(got, want) {
		t.Errorf("Env = %q, want %q", got, want)
	}
	if !slices.Equal(base, orig) {
		t.Errorf("base modified: %q", base)
	}
	got = childproc.Env(base, "")
	if want := []string{"PATH=/bin", "TERM=dumb", "HOME=/h"}; !slices.Equal(got, want) {
		t.Errorf("Env without marker = %q, want %q", got, want)
	}
}

func TestMarkerMatches(t *testing.T) {
	run := childproc.NewRun()
	if len(run) != 16 || run == childproc.NewRun() {
		t.Fatalf("run ids %q: want 16 random hex digits", run)
	}
	m := childproc.Marker("w1", run)
	for _, tc := range []struct {
		name  string
		match childproc.Match
		in    string
		want  bool
	}{
		{"exact", childproc.Exact(m), m, true},
		{"exact other worker", childproc.Exact(m), childproc.Marker("w2", run), false},
		{"exact prefix", childproc.Exact(m), m + "x", false},
		{"exact empty", childproc.Exact(""), "", false},
		{"run", childproc.Runs(run), childproc.Marker("w2", run), true},
		{"run other", childproc.Runs(run), childproc.Marker("w1", "other"), false},
		{"run empty", childproc.Runs(""), "w1/", false},
		{"either", childproc.Either(childproc.Exact("a/b"), childproc.Runs(run)), "a/b", true},
	} {
		if got := tc.match(tc.in); got != tc.want {
			t.Errorf("%s: match(%q) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}
