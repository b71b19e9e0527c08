package chat

import "encoding/json"

// pages are the REST reads of a chat's stored history, forwards
// (GET …/messages) and backwards (…?before=, the web UI's newest page
// first). Runtime embeds them: it is a worker.MessageLister and a
// worker.OlderMessageLister through them.
type pages struct{ journal *journal }

// Messages returns up to limit stored messages after the one whose uuid is
// after ("" means from the start), oldest first, each an sdk-message frame
// without "type", and whether more follow. limit <= 0 means
// wire.PageDefault; it is capped at wire.PageMax. An unknown after is an
// error wrapping worker.ErrNotFound. Every uuid returned is a valid Attach
// cursor.
func (p pages) Messages(after string, limit int) ([]json.RawMessage, bool, error) {
	return p.journal.messages(after, limit)
}

// MessagesBefore returns up to limit stored messages older than the one
// whose uuid is before ("" means the newest page) and newer than the one
// whose uuid is after ("" means no bound), oldest first, each as in
// Messages, and whether older ones remain in that range. An unknown uuid
// is an error wrapping worker.ErrNotFound.
func (p pages) MessagesBefore(before, after string, limit int) ([]json.RawMessage, bool, error) {
	return p.journal.messagesBefore(before, after, limit)
}
