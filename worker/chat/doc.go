// Package chat is the sdk worker kind: Claude Code driven in stream-json
// mode (internal/agent/claude), shown as a chat.
//
// Two types share the work. Runtime drives the CLI: it starts it at the
// first user message (--session-id for a new conversation, --resume
// afterwards, also after a crash of the CLI or a restart of the server, so
// a restored worker costs nothing until used), sends user messages,
// cancels turns, answers permission requests and imports the history of a
// conversation another worker drove. journal is the log on its way to the
// tabs: it gives every complete CLI line a sequence number, stores it and
// only then publishes it, so a cursor a tab holds always exists on disk;
// stream_event deltas are published at once and kept in memory for the
// running message only. A tab that attaches gets the stored history after
// its cursor, then the turn so far, the pending permission requests and
// the activity, with nothing lost or doubled at the seam (journal.attach).
//
// # Data path
//
// One direction, each step bounded:
//
//	CLI stdout → claude.Process (reader; ≤ 256 lines and 4 MiB queued)
//	  → Runtime reader: entries (uuid, html)       (waits for the journal's byte budget)
//	  → journal.produce: seq, frame, store.AppendMessages (persist's writer, group commit)
//	  → journal queue (≤ 256 batches, ≤ 4 MiB of frames)
//	  → publisher: waits for the commit, then hub.Publish (and the turn, pending, activity state)
//	  → hub subscription of each tab (bounded; a slow tab is kicked and resumes by cursor)
//	  → the server's socket writer → the browser
//
// User messages enter at journal.produceCommitted (SendUser returns once
// the message is on disk and published), control events (permission
// requests and answers, the CLI's exit, errors) at journal.produce, and
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
//   - one reader per CLI process (Runtime.read): owned by the Runtime,
//     started with the process (ensureProcess, only while not stopped); it
//     ends when the CLI's stdout ends, then reaps the process and reports
//     the exit. Waited in Runtime.readers.
//   - the history import (Runtime.importHistory): at most one, started by
//     New for a new worker that takes over a conversation; it ends when the
//     file is read or the worker stops. Waited in Runtime.wg.
//   - the stall watchdog (Runtime.watch, stall.go): at most one, owned by
//     the Runtime, started by deliver when a turn begins and the watchdog
//     is on; it ends once the worker is idle with no turn left, or when
//     Stop begins. Waited in Runtime.bg.
//   - a Stop under way (Runtime.halt, stop.go): at most one, started by
//     Cancel; it ends when the turn has ended or Stop begins, and waits
//     for its own interrupt call. Waited in Runtime.bg.
//   - the queue's delivery (queue.run on a coalescer, deliver.go): owned
//     by the Runtime's queue, poked when the chat goes idle, when the
//     queue changes and by the notBefore timer; it sends at most the first
//     item and ends. Stop halts it first (no new poke starts one, the
//     timer is stopped) and waits for it after the send barrier.
//   - renderAll's helpers: spread a burst's markdown over the cores and
//     are waited for before the batch is produced.
//   - claude.Process's own goroutines: ended by its Close.
//
// An idle worker runs none of them. Stop ends them in this order: it marks
// the runtime stopped, denies pending permission requests, closes the CLI
// (its reader then ends), waits for a SendUser in flight, the readers, the
// watchdog and a Stop under way (both end when Stop begins), closes the journal (the publisher drains, the reporter ends, the tabs
// are kicked), waits for the import, and cancels the context that bounds
// the CLI processes.
package chat
