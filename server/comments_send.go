package server

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/review"
)

// maxReview bounds the review message: the agents' limit of one user
// message (sdk.MaxUserMessage, ptyagent.MaxUserMessage).
const maxReview = 256 << 10

// reviewAnswer is what POST …/comments/send answers: every comment, the
// sent ones now "sent", and the worker the review went to.
type reviewAnswer struct {
	WorkerID string           `json:"workerId"`
	Sent     int              `json:"sent"`
	Comments []review.Comment `json:"comments"`
}

// sendReview sends every draft comment as one user message to the
// session's active agent: through the queue while a turn runs (the chat),
// typed into the terminal (pty-agent). The drafts become "sent" only once
// the agent took the message: a failed send leaves them drafts. Sends of
// one session run one at a time, so a double click cannot send twice.
func (s *Server) sendReview(c echo.Context) error {
	if c.Request().ContentLength > 0 {
		var req struct{}
		if err := bind(c, &req); err != nil {
			return err
		}
	}
	sid := c.Param("sid")
	unlock := s.lockSession("review:" + sid)
	defer unlock()
	cs, err := s.mgr.Comments(sid)
	if err != nil {
		return err
	}
	var drafts []review.Comment
	for _, x := range cs {
		if x.Status == review.StatusDraft {
			drafts = append(drafts, x)
		}
	}
	if len(drafts) == 0 {
		return newError(http.StatusConflict, wire.CodeConflict, "There are no draft comments to send")
	}
	msg := review.Message(drafts)
	if len(msg) > maxReview {
		return newError(http.StatusBadRequest, wire.CodeTooLarge, "The review is too long for one message: send fewer comments at a time")
	}
	wid, err := s.deliverReview(c.Request().Context(), sid, msg)
	if err != nil {
		return err
	}
	out, err := s.mgr.UpdateComments(sid, markSent(drafts, time.Now().UTC()))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, reviewAnswer{WorkerID: wid, Sent: len(drafts), Comments: out})
}

// deliverReview hands msg to the session's active agent worker, with the
// delivery POST …/input uses when "when" is left out.
func (s *Server) deliverReview(ctx context.Context, sid, msg string) (string, error) {
	sess, err := s.mgr.Session(sid)
	if err != nil {
		return "", err
	}
	if sess.ActiveAgentWorkerID == nil {
		return "", newError(http.StatusConflict, wire.CodeConflict, "This session has no agent to send the review to: start one first")
	}
	wid := *sess.ActiveAgentWorkerID
	wctx, cancel := context.WithTimeout(ctx, buildWait)
	defer cancel()
	_, rt, err := s.mgr.WaitRuntime(wctx, sid, wid)
	if err != nil {
		return "", err
	}
	in, ok := rt.(worker.Inputter)
	if rt == nil || !ok {
		return "", newError(http.StatusConflict, wire.CodeConflict, "The session's agent is not ready to take a message; try again")
	}
	return wid, submit(ctx, in, msg, "")
}

// markSent marks the comments that were sent, as they were sent: one
// edited or deleted meanwhile is left as it is now.
func markSent(sent []review.Comment, at time.Time) func([]review.Comment) ([]review.Comment, error) {
	return func(cs []review.Comment) ([]review.Comment, error) {
		for i := range cs {
			for _, x := range sent {
				if cs[i].ID == x.ID && cs[i].UpdatedAt.Equal(x.UpdatedAt) && cs[i].Status == review.StatusDraft {
					cs[i].Status, cs[i].SentAt = review.StatusSent, &at
				}
			}
		}
		return cs, nil
	}
}
