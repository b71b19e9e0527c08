package sandbox_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
)

// countingListener is a host loopback port the box must not reach: it
// counts the connections it accepts.
type countingListener struct {
	ln net.Listener
	n  atomic.Int64
}

func listenCounting(t *testing.T) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &countingListener{ln: ln}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return c
}

func (c *countingListener) port() int { return c.ln.Addr().(*net.TCPAddr).Port }

// TestNetworkLoopbackOnly: the box's network holds lo only; another port
// of the host's loopback is unreachable; the endpoint is reached through
// the bridge, with the variable naming the box's side of it.
func TestNetworkLoopbackOnly(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "api saw %s %s", r.Method, r.URL.Path)
	}))
	defer api.Close()
	other := listenCounting(t)
	o := f.options(tl, sandbox.Workspace)
	o.Endpoints = []sandbox.Endpoint{{Var: "API_URL", URL: api.URL + "/base"}}
	b := newBox(t, o)
	out := run(t, b, f.work, fmt.Sprintf(`
echo "ifaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ,)"
echo "url=$API_URL"
echo "api=$(curl -s -m 20 "$API_URL/v1/messages")"
if curl -s -m 5 -o /dev/null http://127.0.0.1:%d/; then echo other=reached; else echo other=unreachable; fi
`, other.port()))
	for _, want := range []string{"ifaces=lo,\n", "url=http://127.0.0.1:41000/base\n", "api=api saw GET /base/v1/messages\n", "other=unreachable\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("box said %q, want %q", out, want)
		}
	}
	if n := other.n.Load(); n != 0 {
		t.Errorf("the host's other port got %d connections from the box", n)
	}
}

// TestConnectAllowlist: an https endpoint is reached through the box's
// CONNECT proxy (TLS checked inside, against the endpoint's own
// certificate); a tunnel to anything else is refused.
func TestConnectAllowlist(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "tls api")
	}))
	defer api.Close()
	other := listenCounting(t)
	o := f.options(tl, sandbox.Workspace)
	o.Endpoints = []sandbox.Endpoint{{Var: "API_URL", URL: api.URL}}
	b := newBox(t, o)
	out := run(t, b, f.work, fmt.Sprintf(`
echo "proxy=$HTTPS_PROXY"
echo "api=$(curl -s -k -m 20 "$API_URL/")"
code=$(curl -s -k -m 20 -o /dev/null -w '%%{http_connect}' https://127.0.0.1:%d/)
echo "other=$code"
`, other.port()))
	for _, want := range []string{"proxy=http://127.0.0.1:41000\n", "api=tls api\n", "other=403\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("box said %q, want %q", out, want)
		}
	}
	if n := other.n.Load(); n != 0 {
		t.Errorf("the host's other port got %d connections through the proxy", n)
	}
}

// TestWorkspaceNet: the host's network is shared: the other port is
// reached, and no bridge runs.
func TestWorkspaceNet(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	other := listenCounting(t)
	o := f.options(tl, sandbox.WorkspaceNet)
	o.Endpoints = []sandbox.Endpoint{{Var: "API_URL", URL: "https://api.example.invalid"}}
	b := newBox(t, o)
	out := run(t, b, f.work, fmt.Sprintf(`echo "url=$API_URL proxy=${HTTPS_PROXY-none}"; curl -s -m 20 -o /dev/null http://127.0.0.1:%d/ ; echo done`, other.port()))
	if !strings.Contains(out, "url=https://api.example.invalid proxy=none\n") {
		t.Errorf("box said %q", out)
	}
	if other.n.Load() == 0 {
		t.Error("the box with the host's network did not reach the host's port")
	}
	if v := b.View(); v.Network != "host" {
		t.Errorf("view network %q, want host", v.Network)
	}
}

// TestEndpointAtItsOwnAddress: an http endpoint without a variable (a
// program reads it from its own config) is reached in the box at its own
// loopback address, through a bridge on the same port; the variable's
// endpoint still gets the first numbered port, an https one without a
// variable joins the proxy's allow list, and one off loopback is refused.
func TestEndpointAtItsOwnAddress(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "own saw %s", r.URL.Path)
	}))
	defer api.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "var saw %s", r.URL.Path)
	}))
	defer other.Close()
	o := f.options(tl, sandbox.Workspace)
	o.Endpoints = []sandbox.Endpoint{{Var: "API_URL", URL: other.URL}, {URL: api.URL + "/v1"}, {URL: "https://api.example.invalid"}}
	b := newBox(t, o)
	out := run(t, b, f.work, fmt.Sprintf(`
echo "url=$API_URL proxy=$HTTPS_PROXY"
echo "own=$(curl -s -m 20 %s/v1/responses)"
echo "var=$(curl -s -m 20 "$API_URL/x")"
`, api.URL))
	for _, want := range []string{"url=http://127.0.0.1:41000 proxy=http://127.0.0.1:41001\n", "own=own saw /v1/responses\n", "var=var saw /x\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("box said %q, want %q", out, want)
		}
	}
	if v := b.View(); len(v.Endpoints) != 3 || !strings.Contains(v.Endpoints[0], "same address") {
		t.Errorf("view endpoints %q", v.Endpoints)
	}
	o.Endpoints = []sandbox.Endpoint{{URL: "http://192.0.2.1:8000/v1"}}
	if _, err := sandbox.ViewOf(o); err == nil || !strings.Contains(err.Error(), "workspace+net") {
		t.Errorf("an http endpoint off loopback without a variable: %v, want refused", err)
	}
}
