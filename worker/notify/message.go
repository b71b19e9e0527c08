package notify

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/agentdesk/agentdesk/internal/push"
	"github.com/agentdesk/agentdesk/worker/attention"
)

// KindMessage is the push payload's kind for a message the agent sent the
// person (the notify tool).
const KindMessage = "message"

// Message pushes a message about session sid to every subscribed
// browser, whether or not a tab shows the session: the person asked to be
// reached. It returns how many subscriptions it was queued for (0: none
// is subscribed).
func (s *Service) Message(sid, title, body string) (int, error) {
	subs := len(s.store.List())
	if subs == 0 {
		return 0, nil
	}
	p := payload{
		Title: attention.Clip(title), Body: attention.Clip(body),
		URL: "/s/" + url.PathEscape(sid), Tag: "agentdesk-message-" + sid,
		SessionID: sid, Kind: KindMessage,
	}
	b, err := json.Marshal(p)
	if err != nil {
		return 0, fmt.Errorf("encode push: %w", err)
	}
	sum := sha256.Sum256([]byte("message|" + sid))
	s.sender.Enqueue(push.Message{Payload: b, Topic: base64.RawURLEncoding.EncodeToString(sum[:24]), Urgent: true})
	return subs, nil
}
