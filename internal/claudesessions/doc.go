// Package claudesessions lists the conversations the Claude Code CLI kept
// in its config directory (<config>/projects/<slug>/<id>.jsonl), so that a
// person can carry one on in agentdesk (GET /api/claude/projects and
// /api/claude/sessions).
//
// Session files reach hundreds of MB, so a listing never reads one whole:
// it reads a bounded head (where the working directory and the first
// prompt are) and a bounded tail (where the CLI re-appends the titles and
// the last prompt, and the latest turn's position), and takes the last
// activity from the file's modification time. Each byte is read and
// looked at once, only lines that may hold what is sought are decoded, and
// a summary is kept while its file keeps its size and modification time,
// so a listing reads only the files that changed since the last one.
package claudesessions
