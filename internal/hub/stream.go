package hub

import "sync"

// Stream is one client's view of a worker's output: a replay of what is
// stored, then live frames. Frames are ready-to-send wire messages (JSON
// text frames, or binary PTY output frames), marshalled once by the worker.
//
// The replay and the subscription are cut at the same cursor, so a client
// that sends every Replay frame and then every frame from Sub sees each
// message exactly once.
type Stream struct {
	// Replay calls yield for each stored frame in order, ending with the
	// history-end frame. It stops at the first error yield returns.
	Replay func(yield func(Frame) error) error
	// Sub delivers live frames after the replay. The caller closes it.
	Sub *Sub
	// OnClose, when set, runs once when the stream is closed (a worker
	// that does work only while someone watches stops it here).
	OnClose func()
	// Coalesce, when set, joins frames[0] with the live frames after it
	// that continue it into one frame with the same meaning (PTY output
	// read in small pieces, sent as one frame to a client that fell
	// behind). It returns the frame, how many frames it stands for, and
	// buf, which it may reuse to build the frame.
	Coalesce func(frames []Frame, buf []byte) (Frame, int, []byte)
	// Expand, when set, may stand in for a live frame: it sends the
	// frames f stands for through yield instead and reports true (an sdk
	// socket's history-appended notice, sent as the stored messages it
	// counts to a client that did not ask for notices); false leaves f
	// as it is. The socket's writer calls it; its client may opt out.
	Expand func(f Frame, yield func(Frame) error) (bool, error)
	once   sync.Once
}

// Close releases the stream's subscription. It is safe to call more than once.
func (s *Stream) Close() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		if s.Sub != nil {
			s.Sub.Close()
		}
		if s.OnClose != nil {
			s.OnClose()
		}
	})
}
