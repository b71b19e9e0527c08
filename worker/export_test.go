package worker

// Allowed exposes the transition table to package worker_test: whether the
// manager (manager true) or a kind may move a worker's status from → to.
func Allowed(from, to Status, manager bool) bool {
	by := byKind
	if manager {
		by = byManager
	}
	return allowed(from, to, by)
}
