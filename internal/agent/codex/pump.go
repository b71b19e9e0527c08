package codex

import (
	"context"
	"encoding/json"
	"errors"
)

// pump feeds Codex's messages to the Translator (first those held while
// the thread opened) and passes on what comes out, batched: all that
// waits while the consumer is busy, up to maxBatch entries or
// maxBatchBytes. While a batch is full it stops reading, which stops the
// reader, which pauses the CLI. It ends when the CLI's output ended and
// everything was passed on, or at Close.
func (s *Session) pump(held []Msg, msgs <-chan Msg) {
	defer close(s.out)
	var batch []Out
	size := 0
	for _, m := range held {
		batch = append(batch, s.feed(m)...)
	}
	for msgs != nil || len(batch) > 0 {
		in := msgs
		if len(batch) >= maxBatch || size >= maxBatchBytes {
			in = nil
		}
		var out chan<- []Out
		if len(batch) > 0 {
			out = s.out
		}
		select {
		case m, ok := <-in:
			if !ok {
				msgs = nil
				continue
			}
			for _, o := range s.feed(m) {
				batch = append(batch, o)
				size += len(o.Raw)
			}
		case o := <-s.extra:
			batch = append(batch, o)
			size += len(o.Raw)
		case out <- batch:
			batch, size = nil, 0
		case <-s.quit:
			return
		}
	}
}

// feed translates one message and answers what needs an answer at once.
func (s *Session) feed(m Msg) []Out {
	s.mu.Lock()
	outs, reply := s.tr.Feed(m)
	if s.tr.lim.watch(m, s.tr.model) {
		s.stopTurn(s.tr.Thread(), s.turn)
	}
	switch m.Method {
	case "turn/started":
		s.turn = s.tr.Turn()
	case "turn/completed":
		s.turn = ""
	}
	s.mu.Unlock()
	if m.Method == "turn/completed" {
		s.tools.cancel() // a call of the ended turn has nobody to answer
	}
	if reply != nil {
		s.respond(*reply)
	}
	return outs
}

// respond answers Codex, or for a tool call that may run (Reply.run)
// hands it to the bridge, whose answer then goes to Codex when the
// provider gave it (the dynamicToolCall item shows the call meanwhile).
func (s *Session) respond(r Reply) error {
	if r.run != nil {
		s.tools.call(*r.run, func(r Reply) { s.respond(r) })
		return nil
	}
	if r.Err != nil {
		return s.p.RespondError(r.ID, r.Err.Code, r.Err.Message)
	}
	return s.p.Respond(r.ID, r.Result)
}

// Message is a user message: its text and images (data: URLs), and the
// id the chat stored it under (Codex gives it back as the userMessage
// item's clientId).
type Message struct {
	ID     string
	Text   string
	Images []string
}

func (m Message) input() []Input {
	var in []Input
	if m.Text != "" {
		in = append(in, Input{Type: "text", Text: m.Text})
	}
	for _, url := range m.Images {
		in = append(in, Input{Type: "image", URL: url})
	}
	return in
}

// Send starts a turn with m, or adds m to the running turn (turn/steer):
// Codex takes it at its next request to the model. A turn that ended
// meanwhile makes it start a new one.
func (s *Session) Send(ctx context.Context, m Message) error {
	s.mu.Lock()
	thread, turn, next := s.tr.Thread(), s.turn, s.next
	if turn == "" && s.tr.lim.spentAll() {
		r := budgetResult(s.tr)
		s.mu.Unlock()
		return s.emit(ctx, r)
	}
	s.mu.Unlock()
	if turn != "" {
		err := s.p.SteerTurn(ctx, thread, turn, m.ID, m.input())
		var rpc *RPCError
		if err == nil || !errors.As(err, &rpc) {
			return err
		}
	}
	id, err := s.p.StartTurn(ctx, TurnParams{ThreadID: thread, Input: m.input(), ClientID: m.ID,
		Model: next.Model, ApprovalPolicy: next.Policy})
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.turn == "" {
		s.turn = id // turn/started comes after the answer
	}
	s.tr.Changed(next)
	if s.next == next {
		s.next = Settings{}
	}
	s.mu.Unlock()
	return nil
}

// Interrupt asks the running turn to stop and returns once Codex took it;
// turn/completed (interrupted) follows on Out. Nothing running is no
// error.
func (s *Session) Interrupt(ctx context.Context) error {
	s.mu.Lock()
	thread, turn := s.tr.Thread(), s.turn
	s.mu.Unlock()
	s.tools.cancel()
	if turn == "" {
		return nil
	}
	err := s.p.InterruptTurn(ctx, thread, turn)
	var rpc *RPCError
	if errors.As(err, &rpc) {
		return nil // the turn ended meanwhile ("no active turn to interrupt")
	}
	return err
}

// Answer answers request id (an allowed tool call runs: respond).
func (s *Session) Answer(id string, a Answer) error {
	s.mu.Lock()
	r, err := s.tr.Decide(id, a)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.respond(r)
}

// Apply changes the model and approval policy from the next turn on (Codex
// takes them with turn/start); "" values change nothing.
func (s *Session) Apply(to Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if to.Model != "" {
		s.next.Model = to.Model
	}
	if to.Policy != "" {
		s.next.Policy = to.Policy
	}
}

// decodeAnswers reads a questions answer's input, {"answers":{q: a}}.
func decodeAnswers(raw json.RawMessage) map[string]string {
	var in struct {
		Answers map[string]string `json:"answers"`
	}
	json.Unmarshal(raw, &in)
	return in.Answers
}
