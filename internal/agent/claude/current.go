package claude

import "encoding/json"

// InForce is the model and permission mode a CLI reports it runs with; ""
// is not reported.
type InForce struct {
	Model          string
	PermissionMode string
}

// ReportedInForce reads what a stdout line says is in force
// (claude-cli.md §4): system/init names the model and the permission mode
// at the start of each turn, system/status the mode after it changed.
// Other lines report nothing (ok false).
func ReportedInForce(l Line) (InForce, bool) {
	if l.Type != "system" || (l.Subtype != "init" && l.Subtype != "status") {
		return InForce{}, false
	}
	var v struct {
		Model          string `json:"model"`
		PermissionMode string `json:"permissionMode"`
	}
	if err := json.Unmarshal(l.Raw, &v); err != nil {
		return InForce{}, false
	}
	f := InForce{PermissionMode: v.PermissionMode}
	if l.Subtype == "init" {
		f.Model = v.Model
	}
	return f, f != InForce{}
}

// Merge returns f with the values o reports on top.
func (f InForce) Merge(o InForce) InForce {
	if o.Model != "" {
		f.Model = o.Model
	}
	if o.PermissionMode != "" {
		f.PermissionMode = o.PermissionMode
	}
	return f
}
