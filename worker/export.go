package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/agentdesk/agentdesk/internal/transcript"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Export is a worker's stored conversation written as a file
// (docs/api-extensions.md, "Export"): a markdown transcript ("md") or
// the stored messages one per line ("jsonl"). It is written a page at a
// time: a conversation of millions of messages never sits in memory.
type Export struct {
	sess   Session
	wid    string
	ml     MessageLister
	format string
	page   []json.RawMessage // the first page
	more   bool
}

// unsafeName is what a download's file name may not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// NewExport reads the first page of worker wid's messages (of session
// sess), so that a store that cannot be read is an error before anything
// is written. format is "md" or "jsonl".
func NewExport(sess Session, wid string, ml MessageLister, format string) (*Export, error) {
	page, more, err := ml.Messages("", wire.PageMax)
	if err != nil {
		return nil, err
	}
	return &Export{sess: sess, wid: wid, ml: ml, format: format, page: page, more: more}, nil
}

// FileName is the download's name: the session's title, made safe, and
// the format.
func (x *Export) FileName() string {
	name := unsafeName.ReplaceAllString(x.sess.Title, "-")
	if name == "" || name == "-" {
		name = "conversation"
	}
	return name + "." + x.format
}

// WriteHeader writes what comes before the messages: the transcript's
// title block (md), nothing (jsonl).
func (x *Export) WriteHeader(w io.Writer) error {
	if x.format != "md" {
		return nil
	}
	hdr := transcript.Header{Title: x.sess.Title, Cwd: x.sess.Cwd, Worker: x.wid, Exported: time.Now()}
	return transcript.WriteHeader(w, hdr)
}

// WriteMessages writes every stored message, calling flush after each
// page.
func (x *Export) WriteMessages(w io.Writer, flush func()) error {
	page, more := x.page, x.more
	for {
		last, err := x.writePage(w, page)
		if err != nil {
			return err
		}
		flush()
		if !more || last == "" {
			return nil
		}
		if page, more, err = x.ml.Messages(last, wire.PageMax); err != nil {
			return err
		}
	}
}

// writePage writes one page of REST message elements ({seq, message,
// html}) and returns the last one's uuid, the next page's cursor.
func (x *Export) writePage(w io.Writer, page []json.RawMessage) (string, error) {
	last := ""
	for _, el := range page {
		var e struct {
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(el, &e); err != nil {
			return "", fmt.Errorf("read stored message: %w", err)
		}
		var id struct {
			UUID string `json:"uuid"`
		}
		_ = json.Unmarshal(e.Message, &id)
		if id.UUID != "" {
			last = id.UUID
		}
		if err := x.writeOne(w, e.Message); err != nil {
			return "", err
		}
	}
	return last, nil
}

func (x *Export) writeOne(w io.Writer, msg json.RawMessage) error {
	if x.format == "md" {
		return transcript.WriteMessage(w, msg)
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
