// Package chat is the chat engine: the sdk worker kind (the API's name),
// an agent shown as a chat, whatever agent it is. The engine knows agents
// only through the contract of internal/agent: a Driver starts one, its
// Conn takes the engine's calls and hands back typed events on one
// channel. main wires the Claude driver (internal/agent/claude):
// chat.Factory(claude.NewDriver(…)) is the sdk kind's factory.
//
// What every driver gets from the engine: the durable journal (numbering,
// group commit, publish after commit, catch-up by cursor, rollback after a
// failed commit, a byte budget), turns and activity, the durable queue and
// its delivery, pending requests and their survival across a restart,
// attachments, the stall watchdog, the escalating Stop, the usage meter,
// and API.md's frames.
//
// The agent starts at the first user message (a new conversation, then
// resumed, also after a crash of the agent or a restart of the server, so
// a restored worker costs nothing until used). The journal is the log on
// its way to the tabs: it gives every complete message a sequence number,
// stores it and only then publishes it, so a cursor a tab holds always
// exists on disk; deltas are published at once and kept in memory for the
// running message only. A tab that attaches gets the stored history after
// its cursor, then the turn so far, the pending requests and the
// activity, with nothing lost or doubled at the seam (journal.attach).
// Runtime (runtime.go) composes the parts it lists; layers_test.go keeps
// the files in layers and the Runtime small.
//
// # Data path
//
// One direction, each step bounded:
//
//	agent → driver (Conn.Events: batches, bounded by the driver; Claude's ≤ 256 lines and 4 MiB)
//	  → intake: entries (uuid, html)                (waits for the journal's byte budget)
//	  → journal.produce: seq, frame, store.AppendMessages (persist's writer, group commit)
//	  → journal queue (≤ 256 batches, ≤ 4 MiB of frames)
//	  → publisher: waits for the commit, then hub.Publish (and the turn, pending, activity state)
//	  → hub subscription of each tab (bounded; a slow tab is kicked and resumes by cursor)
//	  → the server's socket writer → the browser
//
// User messages enter at journal.produceCommitted (SendUser returns once
// the message is on disk and published), other events (requests and
// answers, the agent's exit, errors, stop stages) at journal.produce, and
// the history import at journal.produce in batches.
//
// # Goroutines
//
// Each has one owner, which starts it, stops it and waits for it:
//
//   - the publisher (journal.publish): owned by the journal, started by
//     the first produce when none runs; it ends once its queue is empty and
//     the worker idle, or when journal.close closes the queue (it drains it
//     first, so every produceCommitted gets its answer). Waited in
//     journal.wg.
//   - the activity reporter (journal.reportActivity on a coalescer):
//     owned by the journal, started by the publisher when the activity
//     changed; it tells the manager (worker.Reporter.Activity, a database
//     write) the latest state, once per burst, and ends when no change is
//     left. Waited in journal.wg.
//   - one reader per agent (intake.consume, then slot.exited): owned by
//     the slot, started with the agent (slot.ensure, only while not
//     closed); it ends when the agent's events end, then reaps the agent
//     and reports the exit. Waited in slot.readers.
//   - the history import (history.importHistory or rewatch): at most one,
//     started by the factory for a worker that takes over a conversation;
//     it ends when the record is read (or no other process writes it any
//     more) or the worker stops. Waited in Runtime.wg, with the usage
//     catch-up (meter.catchUp).
//   - the stall watchdog (guard.watch, stall.go): at most one, owned by
//     the guard, started by a delivered message when the watchdog is on;
//     it ends once the worker is idle with no turn left, or when Stop
//     begins. Waited in guard.wg.
//   - a Stop under way (guard.halt, stop.go): at most one, started by
//     Cancel; it ends when the turn has ended or Stop begins, and waits
//     for its own interrupt call. Waited in guard.wg.
//   - the queue's delivery (queue.run on a coalescer, deliver.go): owned
//     by the queue, poked when the chat goes idle, when the queue changes
//     and by the notBefore timer; it sends at most the first item and
//     ends. Stop halts it first (no new poke starts one, the timer is
//     stopped) and waits for it after the send barrier.
//   - renderAll's helpers: spread a burst's markdown over the cores and
//     are waited for before the batch is produced.
//   - the driver's own goroutines (a Conn's): ended by its Close.
//
// An idle worker runs none of them. Stop ends them in this order: it halts
// the queue, closes stopping, closes the slot (no agent starts; a start
// under way is aborted) and the guard, denies pending
// requests (or, for a shutdown, kills an agent that asks), closes the
// agent (its reader then ends), waits for a send in flight, the delivery,
// the readers, the watchdog and a Stop under way, closes the journal (the
// publisher drains, the reporter ends, the tabs are kicked), waits for the
// import and the catch-up, and cancels the context that bounds the
// agent's starts and calls.
package chat
