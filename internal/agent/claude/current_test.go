package claude_test

import (
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

func TestReportedInForce(t *testing.T) {
	tests := []struct {
		line string
		want claude.InForce
		ok   bool
	}{
		{`{"type":"system","subtype":"init","model":"claude-opus-5-5","permissionMode":"default","tools":[]}`,
			claude.InForce{Model: "claude-opus-5-5", PermissionMode: "default"}, true},
		{`{"type":"system","subtype":"status","status":null,"permissionMode":"acceptEdits"}`,
			claude.InForce{PermissionMode: "acceptEdits"}, true},
		{`{"type":"system","subtype":"status","status":"compacting"}`, claude.InForce{}, false},
		{`{"type":"assistant","message":{"model":"claude-opus-5-5"}}`, claude.InForce{}, false},
		{`{"type":"system","subtype":"init","model":7}`, claude.InForce{}, false},
	}
	for _, tt := range tests {
		l, err := claude.ParseLine([]byte(tt.line))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := claude.ReportedInForce(l)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
	merged := claude.InForce{Model: "a", PermissionMode: "plan"}.Merge(claude.InForce{PermissionMode: "default"})
	if merged != (claude.InForce{Model: "a", PermissionMode: "default"}) {
		t.Errorf("merge: %+v", merged)
	}
}
