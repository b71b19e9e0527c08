// Package crashtest is the adversarial suite of "Reliability and security":
// it runs the real agentdesk binary with the fake CLI and SIGKILLs it at
// random moments, floods it with many and slow clients, and breaks its
// children and its disk, checking that nothing committed is lost, nothing
// is doubled and no process outlives the server.
package crashtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// guard bounds every wait on the server. A passing test never reaches it:
// waits end on the event they wait for. It is long so that a loaded 2-core
// machine is never mistaken for a stuck server.
const guard = 10 * time.Minute

// guardContext is a context that ends after guard.
func guardContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), guard)
}

// binPath is the agentdesk binary and fakeCLI the fake claude CLI, both
// built once by TestMain.
var binPath, fakeCLI string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crashtest-bin-")
	if err != nil {
		panic(err)
	}
	code := 1
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func build(dir string) error {
	root, err := fakeapi.ModuleRoot()
	if err != nil {
		return err
	}
	binPath = filepath.Join(dir, "agentdesk")
	cmd := exec.Command("go", "build", "-o", binPath, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build agentdesk: %w\n%s", err, out)
	}
	fakeCLI, err = fakeclaudetest.Build(dir)
	return err
}
