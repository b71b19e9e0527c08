package claudesessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Read bounds: a head or tail read starts at readStart bytes and doubles
// while it holds no complete line of what it looks for, up to readMax.
const (
	readStart = 32 << 10
	readMax   = 1 << 20
)

// maxPrompt bounds the first prompt a listing shows, in runes.
const maxPrompt = 300

// Summary is what a listing shows of one session file.
type Summary struct {
	ID           string    `json:"id"`
	Cwd          string    `json:"-"`
	Title        string    `json:"title"`
	FirstPrompt  string    `json:"firstPrompt"`
	LastActivity time.Time `json:"lastActivity"`
	// Messages is the number of prompts the user sent in the conversation
	// (its turns), from the position the CLI writes on each user line; 0
	// when the file says nothing of it within the bytes read.
	Messages int    `json:"messages"`
	Live     bool   `json:"live"`
	Path     string `json:"-"`
	Size     int64  `json:"-"`
}

// line is the part of a session-file line a summary reads.
type line struct {
	Type        string `json:"type"`
	Cwd         string `json:"cwd"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	CustomTitle  string `json:"customTitle"`
	AITitle      string `json:"aiTitle"`
	LastPrompt   string `json:"lastPrompt"`
	TurnPosition *struct {
		PromptIndex int `json:"promptIndex"`
	} `json:"turnPosition"`
}

// Summarize reads the head and the tail of the session file at path.
func Summarize(path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, fmt.Errorf("open session file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Summary{}, fmt.Errorf("stat session file: %w", err)
	}
	s := Summary{Path: path, Size: fi.Size(), LastActivity: fi.ModTime().UTC()}
	s.ID = strings.TrimSuffix(fi.Name(), ".jsonl")
	if err := readHead(f, fi.Size(), &s); err != nil {
		return s, err
	}
	if err := readTail(f, fi.Size(), &s); err != nil {
		return s, err
	}
	if s.Title == "" {
		s.Title = firstLine(s.FirstPrompt)
	}
	return s, nil
}

// readHead finds the working directory and the first prompt. Each line
// is looked at once, and decoded only when it may hold what is missing.
func readHead(f io.ReaderAt, size int64, s *Summary) error {
	var done int64 // the bytes of whole lines looked at
	return grow(size, func(n int64) (bool, error) {
		buf, err := readAt(f, done, n-done)
		if err != nil {
			return false, err
		}
		if n < size { // the last line may be cut
			buf = buf[:bytes.LastIndexByte(buf, '\n')+1]
		}
		done += int64(len(buf))
		wants := func(l []byte) bool {
			return (s.Cwd == "" && bytes.Contains(l, keyCwd)) || (s.FirstPrompt == "" && bytes.Contains(l, keyUser))
		}
		eachLine(buf, wants, func(l *line) {
			if s.Cwd == "" && l.Cwd != "" {
				s.Cwd = l.Cwd
			}
			if s.FirstPrompt == "" && l.Type == "user" && !l.IsMeta && !l.IsSidechain {
				s.FirstPrompt = promptText(l.Message.Content)
			}
		})
		return s.Cwd != "" && s.FirstPrompt != "", nil
	})
}

// Keys a line must hold to be decoded at all: a file whose tail holds no
// title and no turn line is then scanned at memory speed.
var (
	keyCwd   = []byte(`"cwd"`)
	keyUser  = []byte(`"user"`)
	keyTitle = []byte(`Title"`) // customTitle, aiTitle
	keyTurn  = []byte(`"turnPosition"`)
)

// readTail finds the titles, the last prompt and the latest turn position:
// the CLI appends them as it goes, so the last of each wins. It reads
// backwards in growing chunks, so each byte is read and looked at once.
func readTail(f io.ReaderAt, size int64, s *Summary) error {
	var custom, ai string
	var carry []byte // the end of the line the part read so far starts inside
	pos := size      // where the part read so far starts
	wants := func(l []byte) bool { return bytes.Contains(l, keyTitle) || bytes.Contains(l, keyTurn) }
	err := grow(size, func(n int64) (bool, error) {
		from := size - n
		buf, err := readAt(f, from, pos-from)
		if err != nil {
			return false, err
		}
		pos = from
		buf = append(buf, carry...)
		if from > 0 { // the first line may be cut: keep it for the next chunk
			i := bytes.IndexByte(buf, '\n') + 1
			carry, buf = buf[:i:i], buf[i:]
			if i == 0 {
				carry, buf = buf, nil
			}
		}
		found := false
		eachLine(buf, wants, func(l *line) {
			if l.CustomTitle != "" {
				custom = l.CustomTitle
			}
			if l.AITitle != "" {
				ai = l.AITitle
			}
			if l.TurnPosition != nil && !l.IsSidechain {
				s.Messages = max(s.Messages, l.TurnPosition.PromptIndex+1)
				found = true
			}
		})
		return found || custom != "" || ai != "", nil
	})
	s.Title = firstLine(firstOf(custom, ai))
	return err
}

// grow calls read with readStart bytes, then twice as many, until read is
// satisfied, the file is read whole, or readMax is reached.
func grow(size int64, read func(n int64) (bool, error)) error {
	for n := int64(readStart); ; n *= 2 {
		n = min(n, size, readMax)
		done, err := read(n)
		if err != nil || done || n == size || n == readMax {
			return err
		}
	}
}

// bytesRead counts the bytes summaries read, for the tests that check a
// listing never reads a whole file.
var bytesRead atomic.Int64

func readAt(f io.ReaderAt, off, n int64) ([]byte, error) {
	bytesRead.Add(n)
	buf := make([]byte, n)
	m, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("read session file: %w", err)
	}
	return buf[:m], nil
}

// eachLine decodes the complete JSON lines of buf that wants accepts;
// others are skipped.
func eachLine(buf []byte, wants func([]byte) bool, fn func(*line)) {
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			i = len(buf)
		}
		var l line
		if wants(buf[:i]) && json.Unmarshal(buf[:i], &l) == nil {
			fn(&l)
		}
		buf = buf[min(i+1, len(buf)):]
	}
}

// promptText is a user message's prompt: its text, unless it is a tool
// result or a record the CLI keeps for itself (<command-name>, a system
// reminder…), which are not prompts.
func promptText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) != nil {
		var blocks []struct{ Type, Text string }
		if json.Unmarshal(content, &blocks) != nil {
			return ""
		}
		for _, b := range blocks {
			if b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<") {
				s = b.Text
				break
			}
		}
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<") {
		return ""
	}
	return cut(s, maxPrompt)
}

func cut(s string, runes int) string {
	if utf8.RuneCountInString(s) <= runes {
		return s
	}
	r := []rune(s)
	return string(r[:runes]) + "…"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return cut(strings.TrimSpace(s), 120)
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
