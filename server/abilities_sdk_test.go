package server

import (
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/sdk"
)

// The optional abilities the server and the manager find on an sdk
// runtime by type assertion, checked at build time against the server's
// own interfaces (workers.go). worker/switch.go's canceller has the same
// method as the server's; its activityReporter is unexported in worker,
// whose tests cannot import sdk (a cycle), so its method is spelled out.
// sdk itself asserts worker.Runtime and worker.Attachable (runtime.go).
var (
	_ inputter      = (*sdk.Runtime)(nil)
	_ canceller     = (*sdk.Runtime)(nil)
	_ messageLister = (*sdk.Runtime)(nil)

	_ interface{ Activity() worker.Activity } = (*sdk.Runtime)(nil)
)
