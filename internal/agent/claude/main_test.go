package claude_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// fakeBin is the fakeclaude binary built for this test run.
var fakeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakeclaude-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBin, err = fakeclaudetest.Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.RemoveAll(dir)
		os.Exit(code)
	}))
}
