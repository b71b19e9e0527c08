package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// runUpload sends --parallel messages at once to one chat, each with
// attachments of --upload-bytes in all (PNG images of at most 10 MiB, the
// limit for one file), and reports the server's RSS before, at its peak
// and after.
func runUpload(ctx context.Context, c *client, cfg config) error {
	fmt.Printf("scenario=upload parallel=%d bytes/message=%d\n", cfg.parallel, cfg.uploadBytes)
	s, err := c.newSession(ctx, "sdk")
	if err != nil {
		return err
	}
	defer c.deleteSession(context.Background(), s.ID)
	body := uploadBody(cfg.uploadBytes)
	path := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID + "/input"
	return measureRSS(ctx, cfg.pid, fmt.Sprintf("upload parallel=%d", cfg.parallel), func() error {
		errs := make([]error, cfg.parallel)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() { errs[i] = c.post(ctx, path, body) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// uploadBody is POST …/input's body with n bytes of PNG attachments.
func uploadBody(n int) []byte {
	const perFile = 10 << 20
	var files []string
	for n > 0 {
		data := make([]byte, min(n, perFile))
		copy(data, "\x89PNG\r\n\x1a\n")
		files = append(files, fmt.Sprintf(`{"name":"f%d.png","mediaType":"image/png","data":"%s"}`,
			len(files), base64.StdEncoding.EncodeToString(data)))
		n -= len(data)
	}
	return []byte(`{"content":"look","attachments":[` + strings.Join(files, ",") + `]}`)
}

// runAdopt writes a CLI session file with --adopt-lines lines of
// --adopt-bytes each (user and assistant text, a tool result) into
// --claude-config, adopts it as a new session, and reads the chat until
// the imported history ends, reporting the server's RSS.
func runAdopt(ctx context.Context, c *client, cfg config) error {
	fmt.Printf("scenario=adopt lines=%d bytes/line=%d\n", cfg.adoptLines, cfg.adoptBytes)
	if cfg.claudeConfig == "" {
		return fmt.Errorf("adopt needs --claude-config: the server's claude config directory")
	}
	cwd, err := os.MkdirTemp("", "agentdesk-load-")
	if err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	conv := uuid.NewString()
	path := claude.SessionFilePath(cfg.claudeConfig, cwd, conv)
	if err := writeSessionFile(path, cwd, conv, cfg.adoptLines, cfg.adoptBytes); err != nil {
		return err
	}
	defer os.Remove(path)
	return measureRSS(ctx, cfg.pid, fmt.Sprintf("adopt lines=%d", cfg.adoptLines), func() error {
		var s session
		if err := c.do(ctx, http.MethodPost, "/api/sessions", map[string]string{"cwd": cwd, "claudeSessionId": conv}, &s); err != nil {
			return err
		}
		defer c.deleteSession(context.Background(), s.ID)
		t, err := dialBig(ctx, c, s.ID, s.Workers[0].ID)
		if err != nil {
			return err
		}
		defer t.in.conn.CloseNow()
		for {
			b, err := t.next()
			if err != nil {
				return err
			}
			if bytes.Contains(b, []byte(`"agentdesk_imported"`)) || bytes.Contains(b, []byte(`"agentdesk_import_failed"`)) {
				return nil
			}
		}
	})
}

// writeSessionFile writes lines of about size bytes each, cycling through
// a user prompt, an assistant answer, and a tool result.
func writeSessionFile(path, cwd, conv string, lines, size int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	text := strings.Repeat("x", size)
	shapes := []string{
		`{"type":"user","message":{"role":"user","content":%q}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":%q}]}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]}`,
	}
	for i := range lines {
		l := fmt.Sprintf(shapes[i%len(shapes)], text) +
			fmt.Sprintf(`,"uuid":%q,"sessionId":%q,"cwd":%q,"timestamp":%q}`+"\n", uuid.NewString(), conv, cwd, time.Now().UTC().Format(time.RFC3339))
		if _, err := io.WriteString(f, l); err != nil {
			f.Close()
			return fmt.Errorf("session file: %w", err)
		}
	}
	return f.Close()
}

// measureRSS runs work while sampling the server's RSS and prints it
// before, at its peak and after.
func measureRSS(ctx context.Context, pid int, name string, work func() error) error {
	before, _, _ := rss(pid)
	sctx, stop := context.WithCancel(ctx)
	var peak int
	var wg sync.WaitGroup
	wg.Go(func() { peak = sampleRSS(sctx, pid) })
	start := time.Now()
	err := work()
	took := time.Since(start)
	stop()
	wg.Wait()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	after, hwm, _ := rss(pid)
	anon, file := rssParts(pid)
	fmt.Printf("%s took=%s rss before=%s peak=%s after=%s (anon %s, file %s) hwm=%s\n", name, took.Round(time.Millisecond),
		mib(before), mib(peak), mib(after), mib(anon), mib(file), mib(hwm))
	return nil
}

// post sends a prepared JSON body and fails on an answer other than 2xx.
func (c *client) post(ctx context.Context, path string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.String()+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build POST %s: %w", path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s: %s", path, res.Status, bytes.TrimSpace(b))
	}
	return nil
}
