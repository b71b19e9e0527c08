package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/launch"
)

// ErrUnavailable is a level this machine cannot run: bwrap or socat is
// missing, or bwrap cannot make its namespaces here.
var ErrUnavailable = errors.New("sandbox unavailable")

// probeTimeout bounds the trial run of bwrap.
const probeTimeout = 20 * time.Second

// Tools is what the machine offers for boxes: the programs found (""
// when missing) and, per level, why it cannot run (nil when it can).
type Tools struct {
	Bwrap, Socat string
	workspace    error
	net          error
}

// Check reports whether level can run here: nil, or an error wrapping
// ErrUnavailable that says what to install. Off always can.
func (t Tools) Check(level Level) error {
	switch level {
	case Workspace:
		return t.workspace
	case WorkspaceNet:
		return t.net
	}
	return nil
}

// Probe finds bwrap and socat in path (a PATH value) and runs bwrap once
// with the namespaces a box uses, so that a machine where they cannot be
// made (a container without user namespaces) is known at start-up, not at
// the first session.
func Probe(ctx context.Context, path string) Tools {
	var t Tools
	t.Bwrap, _ = lookPath("bwrap", path)
	t.Socat, _ = lookPath("socat", path)
	switch {
	case t.Bwrap == "":
		t.net = fmt.Errorf("%w: bwrap is not installed; install the Debian package bubblewrap (apt-get install bubblewrap) and restart agentdesk", ErrUnavailable)
	default:
		t.net = trial(ctx, t.Bwrap)
	}
	t.workspace = t.net
	if t.workspace == nil && t.Socat == "" {
		t.workspace = fmt.Errorf("%w: socat is not installed (the sandbox's bridge to the model API needs it); install the Debian package socat (apt-get install socat) and restart agentdesk", ErrUnavailable)
	}
	return t
}

// trial runs `true` in a box as small as a real one's namespaces.
func trial(ctx context.Context, bwrap string) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var stderr strings.Builder
	p, err := launch.Local{}.Start(ctx, launch.Spec{
		Argv: []string{bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
			"--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true"},
		Stderr: &stderr,
	})
	if err == nil {
		err = p.Wait()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("%w: bwrap cannot make its namespaces here (%s); sandboxed sessions need unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or a container that allows them", ErrUnavailable, msg)
	}
	return nil
}
