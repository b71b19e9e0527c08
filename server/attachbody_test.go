package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
)

// filesKind is an sdk worker kind whose runtimes take attachments: each
// call of SendUserFiles is reported on entered, and the first one waits
// for hold to close.
type filesKind struct {
	entered chan []attach.File
	hold    chan struct{}
	once    sync.Once

	mu     sync.Mutex
	inside int
	calls  int
}

func newFilesKind() *filesKind {
	return &filesKind{entered: make(chan []attach.File, 8), hold: make(chan struct{})}
}

// release lets the first call return; safe to call more than once.
func (k *filesKind) release() { k.once.Do(func() { close(k.hold) }) }

func (k *filesKind) factory(context.Context, worker.Env) (worker.Runtime, error) {
	return filesRuntime{k}, nil
}

type filesRuntime struct{ k *filesKind }

func (filesRuntime) Attach(context.Context, string) (*hub.Stream, error) {
	return nil, errors.New("no socket")
}
func (filesRuntime) HandleClient(context.Context, []byte) (*hub.Stream, error) {
	return nil, errors.New("no socket")
}
func (filesRuntime) Stop(context.Context) error { return nil }

func (r filesRuntime) SendUserFiles(ctx context.Context, _, _ string, files []attach.File) error {
	k := r.k
	k.mu.Lock()
	k.inside++
	k.calls++
	inside, first := k.inside, k.calls == 1
	k.mu.Unlock()
	defer func() { k.mu.Lock(); k.inside--; k.mu.Unlock() }()
	k.entered <- files
	if inside > 1 {
		return errors.New("two large bodies were decoded at once")
	}
	if first {
		select {
		case <-k.hold:
		case <-ctx.Done():
		}
	}
	return nil
}

// pngBody is POST …/input's body with files PNG attachments of size bytes.
func pngBody(files, size int) ([]byte, [][]byte) {
	var parts []string
	var raw [][]byte
	for i := range files {
		data := bytes.Repeat([]byte{byte('a' + i)}, size)
		copy(data, "\x89PNG\r\n\x1a\n")
		raw = append(raw, data)
		parts = append(parts, fmt.Sprintf(`{"name":"f%d.png","mediaType":"image/png","data":"%s"}`, i, base64.StdEncoding.EncodeToString(data)))
	}
	return []byte(`{"content":"look","attachments":[` + strings.Join(parts, ",") + `]}`), raw
}

func postBody(t *testing.T, url string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// TestLargeBodiesTakeTurns sends a large upload while another one is
// being handled: it waits for its turn rather than being decoded beside
// the first, and when the turn does not come within the body timeout it
// is answered 503 with Retry-After. Once the first is done, the next one
// goes through, and the files arrive intact.
func TestLargeBodiesTakeTurns(t *testing.T) {
	k := newFilesKind()
	e := newEnv(t, map[worker.Kind]worker.Factory{worker.KindSDK: k.factory})
	s := sdkSession(e)
	srv, err := New(Options{Manager: e.mgr, Token: testToken, Loopback: true, Limits: Limits{BodyTimeout: 500 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer func() { _ = srv.Shutdown(context.Background()); ts.Close() }()
	defer k.release() // before the server closes, whatever fails
	url := ts.URL + "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID + "/input"
	body, raw := pngBody(2, 1<<20) // 2 MiB of files: a large body

	first := make(chan *http.Response, 1)
	go func() { first <- postBody(t, url, body) }()
	files := <-k.entered // the first is being handled, and holds its turn
	for i, f := range files {
		if !bytes.Equal(f.Data, raw[i]) {
			t.Fatalf("file %d arrived changed (%d bytes)", i, len(f.Data))
		}
	}

	res := postBody(t, url, body)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a second large body while the first is handled: %d %v", res.StatusCode, res.Header)
	}
	k.release()
	if res := <-first; res.StatusCode != http.StatusAccepted {
		t.Fatalf("first: %d", res.StatusCode)
	}
	if res := postBody(t, url, body); res.StatusCode != http.StatusAccepted {
		t.Fatalf("after the first: %d", res.StatusCode)
	}
	if k.calls != 2 {
		t.Fatalf("SendUserFiles ran %d times, want 2", k.calls)
	}
}

// TestLargeBodyIsDecodedOnce posts 12 MiB of attachments (a 16 MiB body)
// and counts what the server allocated to take them: the body once and
// the files once, not the several copies of a plain JSON decode (about
// nine times the body).
func TestLargeBodyIsDecodedOnce(t *testing.T) {
	k := newFilesKind()
	k.release()
	e := newEnv(t, map[worker.Kind]worker.Factory{worker.KindSDK: k.factory})
	s := sdkSession(e)
	body, raw := pngBody(3, 4<<20)
	url := e.ts.URL + "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID + "/input"

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := postBody(t, url, body)
	runtime.ReadMemStats(&after)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("input: %d", res.StatusCode)
	}
	files := <-k.entered
	for i, f := range files {
		if !bytes.Equal(f.Data, raw[i]) {
			t.Fatalf("file %d arrived changed", i)
		}
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(2 * len(body)); alloc > limit {
		t.Fatalf("taking a %d MiB body allocated %d MiB; want at most %d MiB", len(body)>>20, alloc>>20, limit>>20)
	}
	t.Logf("a %d MiB body: %d MiB allocated", len(body)>>20, alloc>>20)
}

// FuzzExtractFiles: whenever worker.ExtractAttachmentFiles takes a body's files out, the
// rest decodes exactly when the whole body does, to the same request,
// and the files are what decoding each data string gives.
func FuzzExtractFiles(f *testing.F) {
	body, _ := pngBody(2, 100)
	f.Add(body)
	for _, s := range []string{
		`{"content":"x","attachments":[{"name":"a.png","mediaType":"image/png","data":"iVBORw0KGgo="}]}`,
		`{"content":"x","attachments":[{"data":"QUJD"},{"name":"b"},7]}`,
		`{"attachments":[{"data":"QUJD","data":"REVG"}],"content":"x"}`,
		`{"attachments":[{"data":"QU\/D"}],"content":"x"}`,
		`{"attachments":[],"attachments":[{"data":"QUJD"}]}`,
		`{"Attachments":[{"data":"QUJD"}],"content":"x"} `,
		`{"attachments":[{"data":"QUJD"}],"content":"x","extra":1}`,
		`{"attachments":[{"data":"QU\nJD"}],"content":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rest, files, ok := worker.ExtractAttachmentFiles(body)
		if !ok {
			return
		}
		var whole, part inputRequest
		errWhole, errPart := decodeBody(body, &whole), decodeBody(rest, &part)
		if (errWhole == nil) != (errPart == nil) {
			t.Fatalf("%q: the whole body decodes with %v, the rest %q with %v", body, errWhole, rest, errPart)
		}
		if errWhole != nil {
			return
		}
		if len(whole.Attachments) != len(part.Attachments) || len(files) != len(whole.Attachments) {
			t.Fatalf("%q: %d attachments, %d after extraction, %d files", body, len(whole.Attachments), len(part.Attachments), len(files))
		}
		for i, a := range whole.Attachments {
			p := part.Attachments[i]
			if a.Name != p.Name || a.MediaType != p.MediaType {
				t.Fatalf("%q: attachment %d differs: %+v, %+v", body, i, a, p)
			}
			if files[i] == nil {
				if a.Data != p.Data {
					t.Fatalf("%q: attachment %d lost its data", body, i)
				}
				continue
			}
			want, err := base64.StdEncoding.DecodeString(a.Data)
			if err != nil || !bytes.Equal(want, files[i]) || p.Data != "" {
				t.Fatalf("%q: file %d is %q, want %q (%v)", body, i, files[i], want, err)
			}
		}
	})
}
