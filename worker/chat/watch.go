package chat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/claudesessions"
	"github.com/agentdesk/agentdesk/worker"
)

// Watching a conversation another process writes. A chat that adopts a
// conversation a claude process outside agentdesk still drives (one
// running in a terminal) must never write its session file, so after the
// import it follows the file instead: lines the other process appends
// are stored and shown as they come, user messages are refused, and the
// CLI is not started. When no claude process writes the file any more the
// chat takes the conversation over: the next message resumes it. Both
// changes are stored as system notes (agentdesk_watching,
// agentdesk_watch_ended), so every tab, also one opened later, knows
// which state the chat is in.

// Polling periods: the file for new lines, and /proc for its writer (a
// file change needs no notification library, and a second is soon enough
// for lines a person reads).
var (
	watchEvery  = 500 * time.Millisecond
	writerEvery = 2 * time.Second
)

// procRoot is where the writer of a session file is looked for; tests
// point it elsewhere.
var procRoot = "/proc"

// errWatching refuses what would make the chat write the conversation.
var errWatching = fmt.Errorf("a claude process outside agentdesk is writing this conversation: the chat shows it read-only and takes it over when that process ends: %w", worker.ErrConflict)

const (
	watchingNote = "A claude process outside agentdesk is writing this conversation (in a terminal, say). " +
		"Its turns appear here as they are written; the chat takes the conversation over when that process ends."
	watchEndedNote = "The other claude process has ended: the conversation continues here."
)

// rewatch is the follow of a restored worker: a claude process outside
// agentdesk may have gone on writing the conversation across the restart.
// Lines written while the server was down are not shown (they are in the
// conversation the CLI resumes later).
func (r *Runtime) rewatch() {
	path, ok := claude.FindSessionFile(claude.ConfigDir(r.childEnv()), r.env.Session.Cwd, r.conv)
	watch := ok && r.otherWriter(path)
	r.setFollowing(watch)
	close(r.imported)
	if !watch {
		return
	}
	var offset int64
	if fi, err := os.Stat(path); err == nil {
		offset = fi.Size()
	}
	r.followFile(path, offset, &importer{r: r, ids: make(map[string]struct{})})
}

// otherWriter reports whether a claude process is writing the session
// file at path now.
func (r *Runtime) otherWriter(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	s := []claudesessions.Summary{{ID: r.conv, Cwd: r.env.Session.Cwd, LastActivity: fi.ModTime()}}
	claudesessions.MarkLive(s, procRoot, time.Now())
	return s[0].Live
}

var _ worker.Watcher = (*Runtime)(nil)

// Watching reports whether another process writes the conversation now.
func (r *Runtime) Watching() bool { return r.isFollowing() }

func (r *Runtime) isFollowing() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.following
}

func (r *Runtime) setFollowing(on bool) {
	r.mu.Lock()
	r.following = on
	r.mu.Unlock()
}

// followFile follows the session file from offset while another process writes
// it, then hands the conversation to this worker. It runs on the import
// goroutine, after the history is stored.
func (r *Runtime) followFile(path string, offset int64, im *importer) {
	r.note("agentdesk_watching", watchingNote)
	defer r.setFollowing(false)
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	lastCheck := time.Now()
	for {
		select {
		case <-r.stopping:
			return
		case <-tick.C:
		}
		var err error
		if offset, err = r.readAppended(path, offset, im); err != nil {
			if !errors.Is(err, errStopped) {
				r.log.Error("follow session file", "path", path, "err", err)
			}
			return
		}
		if time.Since(lastCheck) < writerEvery {
			continue
		}
		lastCheck = time.Now()
		if !r.otherWriter(path) {
			if _, err := r.readAppended(path, offset, im); err == nil {
				r.setFollowing(false)
				r.note("agentdesk_watch_ended", watchEndedNote)
			}
			return
		}
	}
}

// readAppended stores the complete lines appended to the file since offset and
// returns the offset after them. Lines the import already stored are
// skipped by their uuid.
func (r *Runtime) readAppended(path string, offset int64, im *importer) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return offset, fmt.Errorf("open session file: %w", err)
	}
	defer f.Close()
	const window = claude.MaxLineSize + 1<<20
	buf, err := io.ReadAll(io.NewSectionReader(f, offset, window))
	if err != nil {
		return offset, fmt.Errorf("read session file: %w", err)
	}
	end := bytes.LastIndexByte(buf, '\n') + 1
	if end == 0 && len(buf) == window {
		r.log.Warn("skip a session-file line longer than the limit", "path", path, "offset", offset)
		return offset + window, nil // as ScanSession does with it
	}
	for _, line := range bytes.Split(buf[:end], []byte{'\n'}) {
		e, err := claude.ParseSessionLine(line)
		if err != nil {
			continue // bookkeeping, a sidechain, a blank line
		}
		if err := im.add(e); err != nil {
			return offset, err
		}
	}
	return offset + int64(end), im.flush()
}

// note stores a system note about the chat's state.
func (r *Runtime) note(subtype, text string) {
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(importFailedNote{Type: "system", Subtype: subtype, Message: text, UUID: id, SessionID: r.conv})
	if err := r.journal.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}}); err != nil {
		r.log.Debug("watch note after stop", "err", err)
	}
}
