package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// The three servers' terminal protocols, read by the same client code
// (termTab). Each decodes a message into the terminal's bytes in a reused
// buffer, at a cost per byte close to a copy, so the client does not favour
// one server over another.

// errProto is returned for a message a protocol does not allow.
var errProto = errors.New("unexpected message")

// adConn is agentdesk's worker socket: binary frames of an 8-byte offset
// and the output; input as {"type":"input","data"} text frames.
type adConn struct {
	in   frames
	off  int64 // where the next output frame must start, -1 before the first
	gapN int
}

func (c *adConn) send(ctx context.Context, input []byte) error {
	b, err := json.Marshal(map[string]string{"type": "input", "data": string(input)})
	if err != nil {
		return fmt.Errorf("encode input: %w", err)
	}
	return c.in.conn.Write(ctx, websocket.MessageText, b)
}

func (c *adConn) next() ([]byte, error) {
	typ, b, err := c.in.read()
	if err != nil || typ != websocket.MessageBinary {
		return nil, err
	}
	if len(b) < 8 {
		return nil, fmt.Errorf("%w: short binary frame", errProto)
	}
	off := int64(binary.BigEndian.Uint64(b))
	if c.off >= 0 && off != c.off {
		c.gapN++
	}
	c.off = off + int64(len(b)-8)
	return b[8:], nil
}

func (c *adConn) gaps() int { return c.gapN }
func (c *adConn) close()    { c.in.conn.CloseNow() }

// gottyConn is gotty's "webtty" protocol: text messages whose first byte
// is the type; output is '1' and base64, input '1' and the raw bytes.
type gottyConn struct {
	in  frames
	out []byte
}

func dialGotty(ctx context.Context, base string) (*gottyConn, error) {
	conn, _, err := websocket.Dial(ctx, "ws://"+base+"/ws", &websocket.DialOptions{Subprotocols: []string{"webtty"}})
	if err != nil {
		return nil, fmt.Errorf("dial gotty: %w", err)
	}
	conn.SetReadLimit(64 << 20)
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"Arguments":"","AuthToken":""}`)); err != nil {
		conn.CloseNow()
		return nil, fmt.Errorf("gotty init: %w", err)
	}
	return &gottyConn{in: frames{conn: conn}}, nil
}

func (c *gottyConn) send(ctx context.Context, input []byte) error {
	return c.in.conn.Write(ctx, websocket.MessageText, append([]byte{'1'}, input...))
}

func (c *gottyConn) next() ([]byte, error) {
	_, b, err := c.in.read()
	if err != nil || len(b) == 0 || b[0] != '1' {
		return nil, err
	}
	b = b[1:]
	if n := base64.StdEncoding.DecodedLen(len(b)); cap(c.out) < n {
		c.out = make([]byte, n)
	}
	n, err := base64.StdEncoding.Decode(c.out[:cap(c.out)], b)
	if err != nil {
		return nil, fmt.Errorf("gotty output: %w", err)
	}
	return c.out[:n], nil
}

func (c *gottyConn) gaps() int { return 0 }
func (c *gottyConn) close()    { c.in.conn.CloseNow() }

// acConn is agent-console's worker socket: JSON text messages, output as
// {"type":"output","data":"…","offset":END,"epoch":N} where offset is the
// byte count of all output up to the end of data; input as
// {"type":"input","data"}.
type acConn struct {
	in   frames
	out  []byte
	end  int64 // offset after the last output, -1 before the first
	gapN int
}

var acOutput = []byte(`{"type":"output","data":"`)

func (c *acConn) send(ctx context.Context, input []byte) error {
	b, err := json.Marshal(map[string]string{"type": "input", "data": string(input)})
	if err != nil {
		return fmt.Errorf("encode input: %w", err)
	}
	return c.in.conn.Write(ctx, websocket.MessageText, b)
}

func (c *acConn) next() ([]byte, error) {
	_, b, err := c.in.read()
	if err != nil || !bytes.HasPrefix(b, acOutput) {
		return nil, err
	}
	var rest []byte
	c.out, rest, err = unquoteJSON(c.out[:0], b[len(acOutput):])
	if err != nil {
		return nil, fmt.Errorf("agent-console output: %w", err)
	}
	const key = `,"offset":`
	if !bytes.HasPrefix(rest, []byte(key)) {
		return nil, fmt.Errorf("%w: agent-console output without offset", errProto)
	}
	rest = rest[len(key):]
	i := bytes.IndexAny(rest, ",}")
	end, err := strconv.ParseInt(string(rest[:max(i, 0)]), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: agent-console offset: %v", errProto, err)
	}
	if c.end >= 0 && end != c.end+int64(len(c.out)) {
		c.gapN++
	}
	c.end = end
	return c.out, nil
}

func (c *acConn) gaps() int { return c.gapN }
func (c *acConn) close()    { c.in.conn.CloseNow() }

// unquoteJSON appends the JSON string body at the start of b (after its
// opening quote) to dst, and returns what follows the closing quote.
func unquoteJSON(dst, b []byte) ([]byte, []byte, error) {
	for {
		i := bytes.IndexAny(b, `"\`)
		if i < 0 {
			return dst, nil, fmt.Errorf("%w: unterminated string", errProto)
		}
		dst = append(dst, b[:i]...)
		if b[i] == '"' {
			return dst, b[i+1:], nil
		}
		if i+1 >= len(b) {
			return dst, nil, fmt.Errorf("%w: bad escape", errProto)
		}
		switch e := b[i+1]; e {
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'u':
			if i+6 > len(b) {
				return dst, nil, fmt.Errorf("%w: bad \\u escape", errProto)
			}
			r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
			if err != nil {
				return dst, nil, fmt.Errorf("%w: bad \\u escape", errProto)
			}
			dst = utf8.AppendRune(dst, rune(r)) // surrogate pairs are not in this test's output
			b = b[i+6:]
			continue
		default:
			return dst, nil, fmt.Errorf("%w: bad escape \\%c", errProto, e)
		}
		b = b[i+2:]
	}
}

// rawConn is the PTY master itself: the rate with no server at all.
type rawConn struct {
	f    *os.File
	buf  []byte
	kill func() // ends the shell: a blocking read on the master ends with it
}

func (c *rawConn) send(_ context.Context, input []byte) error {
	_, err := c.f.Write(input)
	return err
}

func (c *rawConn) next() ([]byte, error) {
	n, err := c.f.Read(c.buf)
	if n > 0 {
		return c.buf[:n], nil
	}
	return nil, err
}

func (c *rawConn) gaps() int { return 0 }
func (c *rawConn) close() {
	c.kill()
	c.f.Close()
}
