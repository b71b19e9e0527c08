// Package codex drives the OpenAI Codex CLI as a chat agent: `codex
// app-server`, a long-lived child that speaks JSON-RPC over stdio, one JSON
// object per line (agents.md §C; the pinned 0.171.0 is the contract, since
// the protocol is marked experimental). It owns everything about that CLI:
// finding it, its flags and environment, the JSON-RPC transport
// (Process), the typed calls (initialize, thread/start|resume,
// turn/start|steer|interrupt, model/list), and the translation of Codex's
// threads, turns and items into the chat's message format (Translator):
// API.md's system, assistant, user, result and stream_event objects with
// text, thinking, tool_use and tool_result blocks, and its approvals into
// permission requests.
//
// What the protocol looks like, call by call, is recorded in
// testdata/recordings (made with the real CLI against the project's fake
// Responses API, internal/testkit/fakeopenai); testdata/schema keeps the
// parts of the schema the binary prints (`codex app-server
// generate-json-schema`) that this package relies on.
//
// Goroutines: a Process runs three (the stdout reader, the stderr drain,
// the waiter); Close ends them and waits for them.
package codex
