package worker

import "github.com/agentdesk/agentdesk/internal/attach"

// AttachmentInput is one attachment as a request carries it (POST …/input,
// POST …/queue): a name, a media type and base64 data.
type AttachmentInput = attach.Input

// DecodeAttachments checks and decodes a request's attachments (types,
// magic bytes, limits) for a FileSender or FileQueuer: a bad one is an
// error and nothing is decoded.
func DecodeAttachments(in []AttachmentInput) ([]attach.File, error) { return attach.Decode(in) }

// ExtractAttachmentFiles takes the base64 data of a request body's
// attachments out and decodes it (attach.ExtractFiles): rest is the body
// with "" for each data string taken, files the data by attachment index.
// ok is false when the body must be decoded the ordinary way.
func ExtractAttachmentFiles(body []byte) (rest []byte, files [][]byte, ok bool) {
	return attach.ExtractFiles(body)
}
