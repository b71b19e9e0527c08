package wire

// Frame types of /ws/app, the lifecycle stream. Their payloads are the
// domain's Session and Worker objects, so worker/events.go builds them,
// in one place, with these names.
const (
	TypeSessionsSync   = "sessions-sync"
	TypeSessionCreated = "session-created"
	TypeSessionUpdated = "session-updated"
	TypeSessionDeleted = "session-deleted"
	TypeWorkerCreated  = "worker-created"
	TypeWorkerUpdated  = "worker-updated"
	TypeWorkerDeleted  = "worker-deleted"
	TypeWorkerActivity = "worker-activity"
)
