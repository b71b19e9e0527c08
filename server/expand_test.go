package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// A stream's Expand stands in for a live frame (an sdk socket's
// history-appended notice) with the frames it counts, unless the socket's
// client asked for notices (notices=1): then the frame goes as it is. That
// holds in the replay (a replay far behind an import's run) and live, and
// the frames around it keep their order either way.
func TestPumpExpandsUnlessNotices(t *testing.T) {
	for _, tc := range []struct {
		notices bool
		want    string
	}{
		{false, "r m1 m2 a m1 m2 b "},
		{true, "r N a N b "},
	} {
		h := hub.New(0)
		ready := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			bw := &batchWriter{ResponseWriter: w, timeout: writeTimeout}
			conn, err := websocket.Accept(bw, r, nil)
			if err != nil {
				return
			}
			defer conn.CloseNow()
			sock := &socket{Conn: conn, batch: bw.conn}
			sub, _ := h.Subscribe(16)
			replay := func(yield func(hub.Frame) error) error {
				if err := yield(hub.Frame{Data: []byte("r")}); err != nil {
					return err
				}
				return yield(hub.Frame{Data: []byte("N")})
			}
			st := &hub.Stream{Replay: replay, Sub: sub,
				Expand: func(f hub.Frame, yield func(hub.Frame) error) (bool, error) {
					if !bytes.Equal(f.Data, []byte("N")) {
						return false, nil
					}
					for _, m := range []string{"m1", "m2"} {
						if err := yield(hub.Frame{Data: []byte(m)}); err != nil {
							return true, err
						}
					}
					return true, nil
				}}
			defer st.Close()
			close(ready)
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			go clientFrames(ctx, cancel, sock, func([]byte) {})
			p := pump{conn: sock, out: make(chan hub.Frame, 1), streams: make(chan *hub.Stream, 1), notices: tc.notices}
			p.stream(ctx, st)
		}))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
		if err != nil {
			t.Fatal(err)
		}
		<-ready
		for _, f := range []string{"a", "N", "b"} {
			h.Publish(1, hub.Frame{Data: []byte(f)})
		}
		var got strings.Builder
		for range strings.Fields(tc.want) {
			_, data, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got.WriteString(string(data) + " ")
		}
		if got.String() != tc.want {
			t.Errorf("notices %v: the client got %q, want %q", tc.notices, got.String(), tc.want)
		}
		c.CloseNow()
		cancel()
		srv.Close()
	}
}
