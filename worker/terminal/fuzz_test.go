package terminal_test

import (
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// FuzzClientFrame feeds arbitrary text frames to a terminal without a
// process: each must be applied or refused with ErrInvalid/ErrNotRunning.
func FuzzClientFrame(f *testing.F) {
	for _, s := range []string{
		`{"type":"input","data":"ls\n"}`, `{"type":"resize","cols":80,"rows":24}`,
		`{"type":"resize","cols":1e3,"rows":-1}`, `{"type":"input","data":"\u001b[A"}`,
		`{"type":"x"}`, `null`, `{"type":"input","data":null}`, `"input"`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		fx := newFixture(t, openStore(t), worker.Info{Status: worker.StatusExited})
		tm := fx.start(t, true)
		st, err := tm.HandleClient(t.Context(), frame)
		if st != nil {
			t.Fatal("a client frame returned a stream")
		}
		if err != nil && !errors.Is(err, worker.ErrInvalid) && !errors.Is(err, worker.ErrNotRunning) {
			t.Fatalf("frame %q: unexpected error %v", frame, err)
		}
	})
}
