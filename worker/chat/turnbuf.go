package chat

// maxTurnBytes bounds the stream_event frames kept for the message being
// streamed, which a tab that attaches mid-message is sent after the
// history. A message streamed in deltas costs several times its text in
// frames; past this, the tab sees the message when it is stored (it
// ignores deltas of a block it has not seen start).
const maxTurnBytes = 8 << 20

// turnBuffer holds the stream_event frames of the message being streamed.
// The journal's pubMu guards it.
type turnBuffer struct {
	frames [][]byte
	size   int  // their bytes
	cut    bool // over maxTurnBytes: none kept until the message ends
}

// keep keeps a stream_event frame for later attachments.
func (t *turnBuffer) keep(e *entry) {
	switch {
	case e.endsMessage:
		// Every block of the message is stored by now (the agent sends a
		// block's complete line before its content_block_stop): a tab
		// attaching later gets them from the log.
		t.clear()
	case t.cut:
	case t.size+len(e.frame) > maxTurnBytes:
		t.clear()
		t.cut = true
	default:
		t.frames = append(t.frames, e.frame)
		t.size += len(e.frame)
	}
}

func (t *turnBuffer) clear() { *t = turnBuffer{} }
