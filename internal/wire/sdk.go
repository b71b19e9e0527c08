package wire

import "encoding/json"

// Frame types a tab sends on an sdk worker's socket (API.md).
const (
	TypeUserMessage        = "user-message"
	TypeCancel             = "cancel"
	TypePermissionResponse = "permission-response"
	TypeRequestHistory     = "request-history"
)

// Permission is what a permission-request frame carries: a tool call (an
// AskUserQuestion too) waiting for a person's answer.
type Permission struct {
	RequestID               string          `json:"requestId"`
	ToolName                string          `json:"toolName"`
	Input                   json.RawMessage `json:"input"` // a JSON object
	Description             string          `json:"description"`
	ToolUseID               string          `json:"toolUseId,omitempty"`
	PermissionSuggestions   json.RawMessage `json:"permissionSuggestions,omitempty"`
	BlockedPath             string          `json:"blockedPath,omitempty"`
	RequiresUserInteraction *bool           `json:"requiresUserInteraction,omitempty"`
	// PlanHTML is an ExitPlanMode request's plan rendered from markdown by
	// the server's sanitizing renderer.
	PlanHTML string `json:"planHtml,omitempty"`
}

// PermissionRequest is {"type":"permission-request","requestId",…}. It
// fails only when Input or PermissionSuggestions is not valid JSON.
func PermissionRequest(p Permission) ([]byte, error) {
	return json.Marshal(struct {
		Type string `json:"type"`
		Permission
	}{TypePermissionRequest, p})
}

// TypeHistoryAppended is the sdk socket's notice of stored messages that
// were not sent one by one (docs/api-extensions.md).
const TypeHistoryAppended = "history-appended"

// HistoryAppended is {"type":"history-appended","count","last"}: count
// messages, the newest of which has uuid last, were stored after the
// previous frame and are not sent on the socket (an imported history):
// the cursor moves to last, and a tab reads them over REST
// (GET …/messages?before=) if it shows them.
func HistoryAppended(count int, last string) []byte {
	return mustJSON(struct {
		Type  string `json:"type"`
		Count int    `json:"count"`
		Last  string `json:"last"`
	}{TypeHistoryAppended, count, last})
}
