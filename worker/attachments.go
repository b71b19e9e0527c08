package worker

import "github.com/agentdesk/agentdesk/internal/attach"

// AttachmentInput is one attachment as a request carries it (POST …/input,
// POST …/queue): a name, a media type and base64 data.
type AttachmentInput = attach.Input

// DecodeAttachments checks and decodes a request's attachments (types,
// magic bytes, limits) for a FileSender or FileQueuer: a bad one is an
// error and nothing is decoded.
func DecodeAttachments(in []AttachmentInput) ([]attach.File, error) { return attach.Decode(in) }
