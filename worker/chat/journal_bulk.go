package chat

// replayNoticeMin is how many imported messages of a replay's gap make it
// send one history-appended notice for them instead of a frame each: more
// than the newest page a tab shows (frontend history.ts, 200), which it
// reads over REST at the notice. A tab that connects during an import
// (its page read and its socket a moment apart) would otherwise get
// thousands of messages one by one and render them, competing with the
// import for the CPU.
const replayNoticeMin = 200

// bulkRun is the latest run of contiguous seqs published as
// history-appended notices (entry.bulk), guarded by pubMu. Its messages
// are all stored and published; a replay may stand for them with a notice.
type bulkRun struct {
	first, last uint64 // seqs; first == 0: none
	lastUUID    string
}

// add extends the run with the message at seq, or begins a new one when
// seq does not follow it (a message in between was not bulk).
func (r *bulkRun) add(seq uint64, uuid string) {
	if r.first == 0 || seq != r.last+1 {
		r.first = seq
	}
	r.last, r.lastUUID = seq, uuid
}

// gap returns, for a replay of the seqs in (after, to], the part of the run
// it holds, (lo, r.last], when that part is at least replayNoticeMin
// messages and ends the replay's range no later than to; ok is false when
// the replay sends every message.
func (r bulkRun) gap(after, to uint64) (lo uint64, ok bool) {
	if r.first == 0 || r.last > to || r.last <= after {
		return 0, false
	}
	lo = max(after, r.first-1)
	return lo, r.last-lo >= replayNoticeMin
}
