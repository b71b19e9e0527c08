package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// inMsg is one stdin line, decoded as far as the fake needs.
type inMsg struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   struct {
		Subtype string `json:"subtype"`
		Mode    string `json:"mode"`
		Model   string `json:"model"`
	} `json:"request"`
	Response struct {
		RequestID string `json:"request_id"`
	} `json:"response"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// fake is the CLI's state: one goroutine (loop) owns it.
type fake struct {
	out       *bufio.Writer
	in        <-chan inMsg // closed at stdin EOF
	turns     [][]string   // nil: built-in turns
	next      int
	queue     []inMsg // user messages waiting for their turn
	eof       bool
	lastError bool
	flood     int
	floodRate int // lines a second; 0: as fast as possible
	big       bigSpec
	sessionID string
	cwd       string
	hang      bool // FAKECLAUDE_HANG: turns that never end (hang.go)
}

func newFake(args []string) (*fake, error) {
	f := &fake{out: bufio.NewWriterSize(os.Stdout, 256<<10), sessionID: uuid.NewString()}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--session-id" || args[i] == "--resume" {
			f.sessionID = args[i+1]
		}
	}
	f.cwd, _ = os.Getwd()
	f.hang = os.Getenv("FAKECLAUDE_HANG") == "1"
	if n := os.Getenv("FAKECLAUDE_FLOOD"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil {
			return nil, fmt.Errorf("FAKECLAUDE_FLOOD: %w", err)
		}
		f.flood = v
	}
	if n := os.Getenv("FAKECLAUDE_FLOOD_RATE"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1000 {
			return nil, fmt.Errorf("FAKECLAUDE_FLOOD_RATE: want lines a second, at least 1000: %q", n)
		}
		f.floodRate = v
	}
	if spec := os.Getenv("FAKECLAUDE_BIG"); spec != "" {
		b, err := parseBig(spec, os.Getenv("FAKECLAUDE_BIG_KIND"))
		if err != nil {
			return nil, err
		}
		f.big = b
	}
	if path := os.Getenv("FAKECLAUDE_SCRIPT"); path != "" {
		turns, err := loadScript(path)
		if err != nil {
			return nil, err
		}
		f.turns = turns
	}
	in := make(chan inMsg, 16)
	go readStdin(in) // ends at EOF; the process exits soon after
	f.in = in
	return f, nil
}

func readStdin(in chan<- inMsg) {
	defer close(in)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var m inMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			fmt.Fprintf(os.Stderr, "fakeclaude: bad stdin line: %v\n", err)
			continue
		}
		in <- m
	}
}

// loop handles stdin until EOF, playing one turn per user message, and
// returns the exit code.
func (f *fake) loop() int {
	for {
		if len(f.queue) > 0 {
			m := f.queue[0]
			f.queue = f.queue[1:]
			f.playTurn(m)
			continue
		}
		if f.eof {
			break
		}
		m, ok := <-f.in
		if !ok {
			f.eof = true
			continue
		}
		f.handle(m)
	}
	if f.lastError {
		return 1
	}
	return 0
}

// handle answers a control request or queues a user message. It returns
// true for an interrupt.
func (f *fake) handle(m inMsg) (interrupted bool) {
	switch m.Type {
	case "user":
		f.queue = append(f.queue, m)
	case "control_request":
		f.control(m)
		return m.Request.Subtype == "interrupt"
	}
	return false
}

func (f *fake) control(m inMsg) {
	if on := os.Getenv("FAKECLAUDE_EXIT_ON"); on != "" && m.Request.Subtype == on {
		f.out.Flush()
		fmt.Fprintf(os.Stderr, "fakeclaude: Error: exiting on %s\n", m.Request.Subtype)
		os.Exit(5)
	}
	var resp any
	switch m.Request.Subtype {
	case "initialize":
		resp = map[string]any{
			"commands": []any{}, "agents": []any{}, "models": []any{},
			"output_style": "default", "pid": os.Getpid(),
			"claude_code_version": "2.1.330-fakeclaude", "current_permission_mode": "default",
			"session_state": "idle",
			"account":       map[string]string{"tokenSource": "none", "apiKeySource": "ANTHROPIC_API_KEY"},
		}
	case "interrupt":
		resp = map[string]any{"still_queued": []any{}}
	case "set_permission_mode":
		resp = map[string]string{"mode": m.Request.Mode}
	case "set_model":
		resp = map[string]string{"model": m.Request.Model}
	default:
		f.emitJSON(map[string]any{"type": "control_response", "response": map[string]string{
			"subtype": "error", "request_id": m.RequestID, "error_code": "unsupported_request",
			"error": "Unsupported control request subtype: " + m.Request.Subtype,
		}})
		return
	}
	f.emitJSON(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": m.RequestID, "response": resp,
	}})
	if m.Request.Subtype == "set_model" { // as CLI 2.1.330 does, also while idle
		f.emitJSON(map[string]any{"type": "user", "isReplay": true, "session_id": f.sessionID, "uuid": uuid.NewString(),
			"message": map[string]any{"role": "user", "content": "<local-command-stdout>Set model to " + m.Request.Model + "</local-command-stdout>"}})
	}
	if m.Request.Subtype == "set_permission_mode" {
		f.emitJSON(map[string]any{"type": "system", "subtype": "status", "status": nil,
			"permissionMode": m.Request.Mode, "session_id": f.sessionID, "uuid": uuid.NewString()})
	}
}

func (f *fake) emit(line string) {
	f.out.WriteString(line)
	f.out.WriteByte('\n')
	f.out.Flush()
}

func (f *fake) emitJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own maps get here
	}
	f.emit(string(b))
}

// subst fills the script tokens.
func (f *fake) subst(line string) string {
	line = strings.ReplaceAll(line, "{{SESSION_ID}}", f.sessionID)
	line = strings.ReplaceAll(line, "{{CWD}}", jsonInner(f.cwd))
	for strings.Contains(line, "{{UUID}}") {
		line = strings.Replace(line, "{{UUID}}", uuid.NewString(), 1)
	}
	return line
}

// jsonInner is s escaped for use inside a JSON string.
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
