package wire

import (
	"encoding/json"
	"testing"
)

func TestPermissionRequest(t *testing.T) {
	yes := true
	f, err := PermissionRequest(Permission{
		RequestID: "r1", ToolName: "Bash", Input: json.RawMessage(`{"command":"ls"}`),
		Description: "list", RequiresUserInteraction: &yes,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"permission-request","requestId":"r1","toolName":"Bash","input":{"command":"ls"},` +
		`"description":"list","requiresUserInteraction":true}`
	if string(f) != want {
		t.Fatalf("got  %s\nwant %s", f, want)
	}
	if _, err := PermissionRequest(Permission{Input: json.RawMessage(`{`)}); err == nil {
		t.Fatal("an input that is not JSON was encoded")
	}
}
