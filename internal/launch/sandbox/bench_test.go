package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
)

// BenchmarkStart is what a box adds to starting a process (docs/
// performance.md): `true` started and waited for as it is, in a box
// without a bridge (workspace+net), and in a box whose bridge must listen
// before the program runs (workspace).
//
//	go test ./internal/launch/sandbox -run '^$' -bench Start
func BenchmarkStart(b *testing.B) {
	tl := sandbox.Probe(b.Context(), os.Getenv("PATH"))
	if err := tl.Check(sandbox.Workspace); err != nil {
		b.Skip(err)
	}
	api := httptest.NewServer(http.NotFoundHandler())
	defer api.Close()
	dir := b.TempDir()
	opts := func(level sandbox.Level) sandbox.Options {
		return sandbox.Options{Level: level, Home: dir + "/home", Writable: []string{dir}, Bwrap: tl.Bwrap, Socat: tl.Socat,
			Endpoints: []sandbox.Endpoint{{Var: "API_URL", URL: api.URL}}}
	}
	for _, c := range []struct {
		name  string
		level sandbox.Level
	}{{"local", ""}, {"workspace+net", sandbox.WorkspaceNet}, {"workspace", sandbox.Workspace}} {
		b.Run(c.name, func(b *testing.B) {
			var l launch.Launcher = launch.Local{}
			if c.level != "" {
				box, err := sandbox.New(opts(c.level))
				if err != nil {
					b.Fatal(err)
				}
				defer box.Close()
				l = box
			}
			spec := launch.Spec{Argv: []string{"/usr/bin/true"}, Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}}
			for b.Loop() {
				p, err := l.Start(b.Context(), spec)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Wait(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
