package server

import "testing"

// FuzzViewingFrame: /ws/app's client frames are untrusted; a frame is
// taken only as a viewing frame with a short session id.
func FuzzViewingFrame(f *testing.F) {
	f.Add([]byte(`{"type":"viewing","sessionId":"s1"}`))
	f.Add([]byte(`{"type":"viewing","sessionId":null}`))
	f.Add([]byte(`{"type":"bogus"}`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sid, ok := viewingFrame(data)
		if !ok && sid != "" {
			t.Fatalf("refused frame gave a session id %q", sid)
		}
		if ok && len(sid) > 200 {
			t.Fatalf("a session id of %d bytes was taken", len(sid))
		}
	})
}
