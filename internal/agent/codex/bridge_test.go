package codex

import (
	"encoding/json"
	"testing"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// A provider's result in DynamicToolCallResponse's shape (the pinned
// schema, testdata/schema/DynamicToolCallResponse.json).
func TestDynamicToolResponse(t *testing.T) {
	for _, tc := range []struct {
		in   toolbridge.Result
		want string
	}{
		{toolbridge.TextResult("hi"), `{"contentItems":[{"type":"inputText","text":"hi"}],"success":true}`},
		{toolbridge.ErrorResult("no"), `{"contentItems":[{"type":"inputText","text":"no"}],"success":false}`},
		{toolbridge.Result{Content: []toolbridge.Content{
			{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="},
			{Type: "json", JSON: json.RawMessage(`{"rows":3}`)},
		}}, `{"contentItems":[{"type":"inputImage","imageUrl":"data:image/png;base64,iVBORw0KGgo="},{"type":"inputText","text":"{\"rows\":3}"}],"success":true}`},
		{toolbridge.Result{}, `{"contentItems":[],"success":true}`},
	} {
		got, err := json.Marshal(response(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("response(%+v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
