package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// BuiltinProvider is the name of agentdesk's own server-side provider.
const BuiltinProvider = "agentdesk"

// notifyTool is the tool tabs of agentdesk also register (for every
// session, frontend/src/tools/builtin.ts); this one answers when none is
// open. Registered first, it loses every call to a tab's registration.
var notifyTool = toolbridge.Tool{
	Name:        "notify",
	Description: "Reach the person working with you: shows a notification in their agentdesk tab, or pushes one to their devices when no tab is open. Use it when something needs their attention (a long task finished, you are blocked). It does not wait for an answer.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string","description":"A short title."},"message":{"type":"string","description":"What to tell the person."}},"required":["message"]}`),
}

// Start registers the built-in provider and runs its goroutine until
// Close.
func (s *Service) Start() {
	s.builtin = s.reg.Connect(BuiltinProvider)
	if _, err := s.builtin.Register(toolbridge.AllScopes, []toolbridge.Tool{notifyTool}); err != nil {
		s.log.Error("register the built-in tools", "err", err)
	}
	s.wg.Go(s.serve)
}

// Close removes the built-in provider and waits for its goroutine.
func (s *Service) Close() {
	if s.builtin != nil {
		s.builtin.Close()
	}
	s.wg.Wait()
}

type callFrame struct {
	Type      string          `json:"type"`
	CallID    string          `json:"callId"`
	SessionID string          `json:"sessionId"`
	Tool      string          `json:"tool"`
	Input     json.RawMessage `json:"input"`
}

// serve answers the built-in provider's calls.
func (s *Service) serve() {
	p := s.builtin
	for {
		select {
		case <-p.Done():
			return
		case b := <-p.Frames():
			var f callFrame
			if json.Unmarshal(b, &f) != nil || f.Type != toolbridge.TypeCall {
				continue // cancel: every call is answered at once
			}
			if err := p.Answer(f.CallID, s.notify(f.SessionID, f.Input)); err != nil {
				s.log.Warn("answer a built-in tool call", "tool", f.Tool, "err", err)
			}
		}
	}
}

type notifyInput struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// notify pushes the message to the person's subscribed browsers.
func (s *Service) notify(sid string, input json.RawMessage) toolbridge.Result {
	var in notifyInput
	if json.Unmarshal(input, &in) != nil || strings.TrimSpace(in.Message) == "" {
		return toolbridge.ErrorResult(`notify needs {"message": "<what to tell the person>"}.`)
	}
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = "agentdesk"
		if sess, err := s.sessions.Session(sid); err == nil && sess.Title != "" {
			title = sess.Title
		}
	}
	if s.push == nil {
		return toolbridge.ErrorResult("The person could not be reached: no agentdesk tab is open and push notifications are off.")
	}
	n, err := s.push.Message(sid, title, in.Message)
	switch {
	case err != nil:
		s.log.Error("push a notify message", "session", sid, "err", err)
		return toolbridge.ErrorResult("The person could not be reached: the push notification failed.")
	case n == 0:
		return toolbridge.ErrorResult("The person could not be reached: no agentdesk tab is open and no device subscribed to push notifications. Leave the message in your reply instead.")
	}
	return toolbridge.TextResult(fmt.Sprintf("No agentdesk tab is open; the message was pushed to %d subscribed device(s).", n))
}
