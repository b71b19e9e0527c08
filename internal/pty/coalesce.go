package pty

import (
	"encoding/binary"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// maxJoined bounds the output bytes of one coalesced frame, so a client
// that fell far behind still gets frames a browser handles in one go, and
// a socket writer's join buffer stays small.
const maxJoined = 256 << 10

// Coalesce joins frames[0] with the output frames after it that continue
// it (each starting at the offset where the previous one ends) into one
// binary frame built in buf, up to maxJoined bytes. It returns that frame,
// how many of frames it stands for, and buf, grown as needed; the frame is
// valid until buf is reused. A frame that starts no run comes back as it
// is, standing for one. A client that fell behind a flood by a hundred PTY
// reads so gets one frame instead of a hundred: one socket message and one
// terminal write. frames must not be empty; their bytes are never written.
func Coalesce(frames []hub.Frame, buf []byte) (hub.Frame, int, []byte) {
	first := frames[0]
	if !isOutput(first) {
		return first, 1, buf
	}
	end, size := frameEnd(first), len(first.Data)
	n := 1
	for n < len(frames) && continues(frames[n], end, size) {
		if n == 1 {
			buf = append(buf[:0], first.Data...)
		}
		buf = append(buf, frames[n].Data[headerLen:]...)
		end, size = frameEnd(frames[n]), len(buf)
		n++
	}
	if n == 1 {
		return first, 1, buf
	}
	return hub.Frame{Binary: true, Data: buf}, n, buf
}

func isOutput(f hub.Frame) bool { return f.Binary && len(f.Data) > headerLen }

// frameEnd is the offset just past an output frame's bytes.
func frameEnd(f hub.Frame) int64 {
	return int64(binary.BigEndian.Uint64(f.Data)) + int64(len(f.Data)-headerLen)
}

// continues reports whether f starts at end and still fits in a joined
// frame of about have bytes.
func continues(f hub.Frame, end int64, have int) bool {
	return isOutput(f) && int64(binary.BigEndian.Uint64(f.Data)) == end &&
		have+len(f.Data)-headerLen <= headerLen+maxJoined
}
