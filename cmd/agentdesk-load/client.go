package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"

	"github.com/coder/websocket"
)

// client talks to one agentdesk with its token. Safe for concurrent use.
type client struct {
	base    *url.URL
	token   string
	http    *http.Client
	sandbox string // the sandbox level of the sessions made ("" for the server's default, off)
}

func newClient(base *url.URL, token string) *client {
	return &client{base: base, token: token, http: &http.Client{}}
}

type session struct {
	ID      string  `json:"id"`
	Workers []winfo `json:"workers"`
}

type winfo struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

// do sends a JSON request and decodes the answer into out (when not nil).
func (c *client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, rd)
	if err != nil {
		return fmt.Errorf("build %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("read %s %s: %w", method, path, err)
	}
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, bytes.TrimSpace(b))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return nil
}

// newSession creates a session in a fresh temp dir (not a git work tree, so
// no git-diff worker) with the given agent.
func (c *client) newSession(ctx context.Context, agent string) (session, error) {
	dir, err := os.MkdirTemp("", "agentdesk-load-")
	if err != nil {
		return session{}, fmt.Errorf("create session dir: %w", err)
	}
	var s session
	body := map[string]any{"cwd": dir, "agent": agent, "title": "load"}
	if c.sandbox != "" {
		body["sandbox"] = c.sandbox
	}
	err = c.do(ctx, http.MethodPost, "/api/sessions", body, &s)
	return s, err
}

func (c *client) deleteSession(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/api/sessions/"+id, nil, nil)
}

func (c *client) newWorker(ctx context.Context, sid string, req map[string]any) (winfo, error) {
	var w winfo
	err := c.do(ctx, http.MethodPost, "/api/sessions/"+sid+"/workers", req, &w)
	return w, err
}

func (c *client) input(ctx context.Context, sid, wid, content string) error {
	return c.do(ctx, http.MethodPost, "/api/sessions/"+sid+"/workers/"+wid+"/input", map[string]string{"content": content}, nil)
}

// dial opens a worker socket; query is appended as is ("" or "?after=…").
func (c *client) dial(ctx context.Context, sid, wid, query string) (*websocket.Conn, error) {
	u := "ws://" + c.base.Host + "/ws/sessions/" + sid + "/workers/" + wid + query
	h := http.Header{"Authorization": {"Bearer " + c.token}}
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	conn.SetReadLimit(64 << 20)
	return conn, nil
}

// frames reads whole messages into one reused buffer. The tool stands in
// for browsers on the same cores as the server, so its own cost per frame
// is kept small: conn.Read allocates every message afresh. Owned by one
// goroutine; a returned slice is valid until the next read.
type frames struct {
	conn *websocket.Conn
	buf  []byte
}

// read returns the next message. It reads without ctx: a context with a
// deadline costs coder/websocket a timer per message, more than the frame
// itself. Whoever opened the conn closes it when the run's context ends
// (see watch), which ends a blocked read.
func (f *frames) read() (websocket.MessageType, []byte, error) {
	typ, r, err := f.conn.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	f.buf = f.buf[:0]
	for {
		if len(f.buf) == cap(f.buf) {
			f.buf = append(f.buf, 0)[:len(f.buf)]
		}
		n, err := r.Read(f.buf[len(f.buf):cap(f.buf)])
		f.buf = f.buf[:len(f.buf)+n]
		if err == io.EOF {
			return typ, f.buf, nil
		}
		if err != nil {
			return 0, nil, err
		}
	}
}

// watch closes conn when ctx ends, so reads without a context still end
// with the run. The returned func stops watching.
func watch(ctx context.Context, conn *websocket.Conn) func() bool {
	return context.AfterFunc(ctx, func() { conn.CloseNow() })
}
