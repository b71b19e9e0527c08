package claude

// SendUserContent writes a user message whose content is a list of
// content blocks (text, image, document: claude-cli.md §5), for messages
// with attachments. content must marshal to JSON.
func (p *Process) SendUserContent(content any) error {
	return p.SendUserMessage("", content)
}

// SendUserMessage writes a user message with content (a string, or a list
// of content blocks) and, when id is not "", the uuid the CLI gives it:
// the CLI 2.1.330 keeps it as the entry's uuid in its session file, so
// the message has one identity in the log that sent it and in every log
// that imports the conversation later.
func (p *Process) SendUserMessage(id string, content any) error {
	line := map[string]any{
		"type":    "user",
		"message": map[string]any{"role": "user", "content": content},
	}
	if id != "" {
		line["uuid"] = id
	}
	return p.writeJSON(line)
}
