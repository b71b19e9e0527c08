package attach

import "encoding/base64"

// Block is one content block of a stream-json user message, as the CLI
// passes it to the Messages API unchanged (recorded in
// worker/chat/testdata/attach).
type Block struct {
	Type   string  `json:"type"`
	Text   string  `json:"text,omitempty"`
	Source *Source `json:"source,omitempty"`
	Title  string  `json:"title,omitempty"`
}

// Source is a block's data: base64 (images, PDFs) or text.
type Source struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// Blocks is the content of a user message: the text (when not empty),
// then each file as its block. Images are image blocks, PDFs base64
// document blocks and text files text document blocks titled with their
// name.
func Blocks(text string, files []File) []Block {
	out := make([]Block, 0, len(files)+1)
	if text != "" {
		out = append(out, Block{Type: "text", Text: text})
	}
	for _, f := range files {
		out = append(out, block(f))
	}
	return out
}

func block(f File) Block {
	switch f.Kind {
	case Image:
		return Block{Type: "image", Source: &Source{Type: "base64", MediaType: f.MediaType, Data: base64.StdEncoding.EncodeToString(f.Data)}}
	case Document:
		return Block{Type: "document", Title: f.Name, Source: &Source{Type: "base64", MediaType: f.MediaType, Data: base64.StdEncoding.EncodeToString(f.Data)}}
	}
	return Block{Type: "document", Title: f.Name, Source: &Source{Type: "text", MediaType: "text/plain", Data: string(f.Data)}}
}
