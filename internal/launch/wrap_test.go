package launch

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// cleanEnv is the shape of a launcher beside Local (a sandbox, an SSH
// host): it rewrites the Spec (here: argv behind `env -i`, which clears
// the environment as a sandbox's --clearenv does) and starts the result
// with Local; the handle tracks the direct child.
type cleanEnv struct{}

func (cleanEnv) Start(ctx context.Context, s Spec) (*Process, error) {
	s.Argv = append([]string{"env", "-i", "PATH=" + os.Getenv("PATH")}, s.Argv...)
	return Local{}.Start(ctx, s)
}

// TestWrappingLauncher: a caller's Spec runs unchanged through a launcher
// that rewrites it; the identity the caller records names the process the
// launcher tracks, although the marker never reached it.
func TestWrappingLauncher(t *testing.T) {
	var l Launcher = cleanEnv{}
	marker := childproc.Marker("w1", childproc.NewRun())
	in, hold, err := os.Pipe() // the child runs until hold closes
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Start(t.Context(), Spec{
		Argv: []string{"sh", "-c", `echo "${AGENTDESK_WORKER-none}"; read x || true`}, Marker: marker,
		Stdin: in, StdoutPipe: true,
	})
	in.Close()
	if err != nil {
		hold.Close()
		t.Fatal(err)
	}
	line := make([]byte, 5)
	if _, err := io.ReadFull(p.Stdout(), line); err != nil || string(line) != "none\n" {
		t.Errorf("child saw the marker %q (%v): env -i should have cleared it", line, err)
	}
	if !childproc.Verify(p.Ident()) {
		t.Errorf("identity %+v does not name the running child", p.Ident())
	}
	hold.Close()
	_, _ = io.Copy(io.Discard, p.Stdout())
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
}
