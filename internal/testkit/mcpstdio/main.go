// Command mcpstdio is a test double: an MCP server over stdio with one
// tool, ping, which answers "pong". It is agentdesk's own MCP host side
// (internal/toolbridge) on stdin and stdout, for the tests of MCP servers a
// session adds to its agent.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"sync"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

func main() {
	reg := toolbridge.New(toolbridge.Options{})
	p := reg.Connect("mcpstdio")
	if _, err := p.Register(toolbridge.AllScopes, []toolbridge.Tool{{Name: "ping", Description: "Answers pong."}}); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go answer(ctx, p)
	host := toolbridge.NewHost(reg, toolbridge.HostOptions{Scope: "stdio", Name: "mcpstdio", Version: "1"})
	defer host.Close()
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		msg := append([]byte(nil), in.Bytes()...)
		if json.Unmarshal(msg, &head) != nil || len(head.ID) == 0 {
			host.Handle(msg, func([]byte) {}) // a notification gets no answer on stdio
			continue
		}
		host.Handle(msg, func(reply []byte) {
			mu.Lock()
			defer mu.Unlock()
			out.Write(append(reply, '\n'))
			out.Flush()
		})
	}
}

// answer answers every call of ping.
func answer(ctx context.Context, p *toolbridge.Provider) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-p.Frames():
			var f struct{ Type, CallID string }
			if json.Unmarshal(b, &f) == nil && f.Type == toolbridge.TypeCall {
				_ = p.Answer(f.CallID, toolbridge.TextResult("pong"))
			}
		}
	}
}
