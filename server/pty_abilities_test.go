package server

import "github.com/agentdesk/agentdesk/worker/ptyagent"

// The REST endpoints find a runtime's abilities by type assertion
// (runtimeAs), on interfaces unexported here: these fail the build when
// the pty-agent kind loses one it has. A terminal has none of them (its
// input goes through the socket); both kinds check worker.Attachable in
// their own packages.
var (
	_ inputter  = (*ptyagent.Runtime)(nil)
	_ canceller = (*ptyagent.Runtime)(nil)
)
