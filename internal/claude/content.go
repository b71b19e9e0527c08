package claude

// SendUserContent writes a user message whose content is a list of
// content blocks (text, image, document: claude-cli.md §5), for messages
// with attachments. content must marshal to JSON.
func (p *Process) SendUserContent(content any) error {
	return p.writeJSON(map[string]any{
		"type":    "user",
		"message": map[string]any{"role": "user", "content": content},
	})
}
