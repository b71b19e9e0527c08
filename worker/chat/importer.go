package chat

import (
	"bytes"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/persist"
)

// importBatchBytes bounds the message bytes produced together; maxBatch
// bounds their number.
const importBatchBytes = 4 << 20

// importedMarker ends the imported history.
type importedMarker struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Count     int    `json:"count"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// importer turns the messages of an agent's record into stored entries, a
// batch at a time.
type importer struct {
	j        *journal
	seen     *recentIDs
	refs     refMaker
	conv     string
	stopping <-chan struct{}
	log      *slog.Logger

	ids map[string]struct{} // uuids imported: a repeated one is skipped
	// bulk sends the messages to the tabs as history-appended notices
	// (entry.bulk): set while the record so far is imported, cleared
	// before following what another process appends.
	bulk  bool
	es    []entry
	size  int
	count int // messages produced
}

func (im *importer) add(m agent.HistoryMessage) error {
	if isClosed(im.stopping) {
		return errStopped
	}
	id, msg := m.UUID, m.Raw
	if id == "" {
		id = uuid.Must(uuid.NewV7()).String()
		var err error
		if msg, err = withUUID(msg, id, bytes.Contains(msg, []byte(`"uuid"`))); err != nil {
			return fmt.Errorf("imported message: %w", err)
		}
	}
	if _, dup := im.ids[id]; dup {
		return nil
	}
	im.ids[id] = struct{}{}
	msg, blobs := im.withFiles(msg, m.Files)
	im.es = append(im.es, entry{kind: kStored, msg: msg, uuid: id, typ: m.Type, history: true, bulk: im.bulk, blobs: blobs})
	im.size += len(msg)
	for _, b := range blobs {
		im.size += len(b.Data)
	}
	if len(im.es) >= maxBatch || im.size >= importBatchBytes {
		return im.flush()
	}
	return nil
}

// withFiles stores the files the driver took out of a message (its agent
// kept them inline) the way SendUserFiles stores an attachment: the bytes
// apart (a blob), the message with a reference in "attachments", its last
// member, so the history stays as small as one sent through agentdesk.
func (im *importer) withFiles(msg []byte, files []attachment.File) ([]byte, []persist.Blob) {
	end := bytes.LastIndexByte(msg, '}')
	if len(files) == 0 || end < 0 {
		return msg, nil
	}
	refs, blobs := im.refs.refs(files)
	out := make([]byte, 0, end+len(`,"attachments":}`)+200*len(refs))
	out = append(out, msg[:end]...)
	if len(bytes.TrimSpace(msg[1:end])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"attachments":`...)
	out = append(out, mustJSON(refs)...)
	return append(out, '}'), blobs
}

// flush renders the batch's markdown and stores and publishes it.
func (im *importer) flush() error {
	if len(im.es) == 0 {
		return nil
	}
	renderAll(im.es, im.log)
	for _, e := range im.es {
		im.seen.add(e.uuid)
	}
	if err := im.j.produce(im.es); err != nil {
		return err
	}
	im.count += len(im.es)
	im.es, im.size = nil, 0
	return nil
}

// finish flushes the last batch and adds the marker, when anything was
// imported.
func (im *importer) finish() error {
	err := im.flush()
	im.bulk = false
	if err != nil || im.count == 0 {
		return err
	}
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(importedMarker{Type: "system", Subtype: "agentdesk_imported", Count: im.count, UUID: id, SessionID: im.conv})
	return im.j.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}})
}
