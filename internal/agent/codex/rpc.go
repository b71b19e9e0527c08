package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// Call sends the request method with params and waits for its reply,
// decoding the result into result (nil: ignored). An error reply is an
// *RPCError. ctx bounds the wait; a CLI that exits first is ErrExited.
func (p *Process) Call(ctx context.Context, method string, params, result any) error {
	p.mu.Lock()
	p.nextID++
	id := strconv.FormatInt(p.nextID, 10)
	ch := make(chan envelope, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	defer p.forget(id)
	if err := p.write(map[string]any{"id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		return err
	}
	var env envelope
	select {
	case env = <-ch:
	case <-ctx.Done():
		return fmt.Errorf("codex %s: %w", method, ctx.Err())
	case <-p.readDone:
		select { // the reply may have come just before the end
		case env = <-ch:
		default:
			return fmt.Errorf("codex %s: %w", method, ErrExited)
		}
	}
	if env.Error != nil {
		return env.Error
	}
	if result == nil || len(env.Result) == 0 {
		return nil
	}
	if err := json.Unmarshal(env.Result, result); err != nil {
		return fmt.Errorf("codex %s: decode result: %w", method, err)
	}
	return nil
}

func (p *Process) forget(id string) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// Notify sends the notification method with params (nil: none).
func (p *Process) Notify(method string, params any) error {
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	return p.write(m)
}

// Respond answers the CLI's request id with result.
func (p *Process) Respond(id json.RawMessage, result any) error {
	return p.write(map[string]any{"id": id, "result": result})
}

// RespondError answers the CLI's request id with an error.
func (p *Process) RespondError(id json.RawMessage, code int, message string) error {
	return p.write(map[string]any{"id": id, "error": RPCError{Code: code, Message: message}})
}

// write sends one message as one line. The replies of app-server omit
// "jsonrpc", and it does not need it from us either.
func (p *Process) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode codex message: %w", err)
	}
	b = append(b, '\n')
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.mu.Lock()
	shut := p.stdinShut
	p.mu.Unlock()
	if shut {
		return ErrExited
	}
	if p.opts.Tap != nil {
		p.opts.Tap("stdin", b[:len(b)-1])
	}
	if _, err := p.stdin.Write(b); err != nil {
		return fmt.Errorf("write to codex: %w (%w)", ErrExited, err)
	}
	return nil
}

// readStdout reads messages until EOF (or until Close unblocks it):
// replies go to their Call, the rest to Messages.
func (p *Process) readStdout() {
	defer close(p.msgs)
	defer close(p.readDone)
	r := bufio.NewReaderSize(p.stdout, 64<<10)
	for {
		line, err := readLine(r, MaxLineSize)
		if len(line) > 0 && !p.dispatch(line) {
			return
		}
		if err != nil && err != ErrLineTooLong {
			return
		}
	}
}

// dispatch handles one line; false when Close gave up on the consumer.
func (p *Process) dispatch(line []byte) bool {
	if p.opts.Tap != nil {
		p.opts.Tap("stdout", line)
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return true // not JSON (nothing else is printed on stdout): skip
	}
	if env.Method == "" {
		p.reply(env)
		return true
	}
	select {
	case p.msgs <- Msg{Method: env.Method, ID: env.ID, Params: env.Params}:
		return true
	case <-p.quit:
		return false
	}
}

// reply passes a reply to the Call waiting for it; a reply nobody waits
// for (the Call gave up) is dropped.
func (p *Process) reply(env envelope) {
	p.mu.Lock()
	ch, ok := p.pending[string(env.ID)]
	delete(p.pending, string(env.ID))
	p.mu.Unlock()
	if ok {
		ch <- env // buffered 1, one send per id
	}
}

// drainStderr keeps the tail of stderr. It must always run: a CLI blocked
// on a full stderr pipe would stall.
func (p *Process) drainStderr() {
	defer close(p.stderrDone)
	r := bufio.NewReaderSize(p.stderr, 8<<10)
	for {
		line, err := readLine(r, 64<<10)
		if len(line) > 0 {
			if p.opts.Tap != nil {
				p.opts.Tap("stderr", line)
			}
			p.stderrBuf.Write(append(line, '\n'))
		}
		if err != nil && err != ErrLineTooLong {
			return
		}
	}
}
