// Package toolbridge lets programs outside the agent give it tools: a
// browser tab, another page of the same origin, or any program with the
// token connects as a provider, registers tools (a name, a description, a
// JSON Schema for the input) for one conversation scope or for all, and
// answers the calls routed to it.
//
// It knows no session and no agent protocol. A scope is an opaque string
// (the caller uses session ids; "*" is every scope). The Registry holds
// the providers and their tools, routes each call to one provider with a
// call id, and guarantees that a call ends: with the provider's result,
// with an error result at once when no provider serves the tool, when the
// provider goes away, when agentdesk's own timeout passes, or when the
// caller cancels it (the provider is then told to cancel).
//
// Peer speaks the provider protocol (frames.go, docs/api-extensions.md,
// "Tools from the browser") over any message transport; the server runs
// it on a WebSocket. Host is the MCP server side a driver hosts inside
// its agent's process tree: it answers initialize, tools/list, ping and
// notifications at once, forwards tools/call to the Registry, handles
// notifications/cancelled, and says when the tool list changed.
//
// Goroutines: the Registry starts none; Call runs in its caller's. Host
// runs one goroutine per tools/call in flight and one that watches the
// tool list; Host.Close stops and waits for them.
package toolbridge
