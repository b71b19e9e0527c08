// Package claudesessions lists the conversations the Claude Code CLI kept
// in its config directory (<config>/projects/<slug>/<id>.jsonl), so that a
// person can carry one on in agentdesk (GET /api/claude/projects and
// /api/claude/sessions).
//
// Session files reach hundreds of MB, so a listing never reads one whole:
// it reads a bounded head (where the working directory and the first
// prompt are) and a bounded tail (where the CLI re-appends the titles and
// the last prompt, and the latest turn's position), and takes the last
// activity from the file's modification time.
package claudesessions
