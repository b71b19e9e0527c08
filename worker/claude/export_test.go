package claude

// SetMaxLineSize lowers the line cap for processes started afterwards and
// returns a function restoring it. Not for parallel tests.
func SetMaxLineSize(n int) (restore func()) {
	old := maxLineSize
	maxLineSize = n
	return func() { maxLineSize = old }
}
