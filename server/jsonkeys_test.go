package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// TestJSONKeysAreExact: a key that matches a field only case-insensitively
// answers 400 invalid_field naming the key and the field, and changes
// nothing; the exact key works.
func TestJSONKeysAreExact(t *testing.T) {
	e := newEnv(t, nil)
	dir := t.TempDir()
	s := e.createSession(dir)
	cases := []struct {
		method, path, body, key string
	}{
		{"POST", "/api/sessions", `{"CWD":"` + dir + `","agent":"none"}`, "CWD"},
		{"POST", "/api/sessions", `{"cwd":"` + dir + `","Agent":"none"}`, "Agent"},
		{"POST", "/api/sessions", `{"cwd":"` + dir + `","agent":"none","permissionmode":"plan"}`, "permissionmode"},
		{"PATCH", "/api/sessions/" + s.ID, `{"TITLE":"x"}`, "TITLE"},
		{"POST", "/api/sessions/" + s.ID + "/workers", `{"Kind":"terminal"}`, "Kind"},
		{"POST", "/api/sessions/" + s.ID + "/switch", `{"To":"sdk"}`, "To"},
		{"POST", "/api/login", `{"Token":"` + testToken + `"}`, "Token"},
		{"POST", "/api/sessions", `{"cwd":"` + dir + `","agent":"none","extra":1}`, "extra"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.key, func(t *testing.T) {
			a := e.do(c.method, c.path, c.body)
			if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" || !strings.Contains(string(a.body), `\"`+c.key+`\"`) {
				t.Fatalf("%s: %d %s", c.body, a.status, a.body)
			}
			if a.header.Get("Set-Cookie") != "" {
				t.Fatalf("a refused login set a cookie")
			}
		})
	}
	got, err := e.mgr.Session(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(e.mgr.Sessions()); n != 1 || len(got.Workers) != len(s.Workers) || got.Title != s.Title {
		t.Fatalf("refused bodies changed state: %d sessions, %+v", n, got)
	}
	if a := e.do("PATCH", "/api/sessions/"+s.ID, `{"title":"x"}`); a.status != http.StatusOK {
		t.Fatalf("exact key: %d %s", a.status, a.body)
	}
}

// TestCheckKeysWalksNestedTypes: keys are checked in nested structs, in
// slices of them and under maps, and not inside values that decode
// themselves.
func TestCheckKeysWalksNestedTypes(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type Embedded struct {
		Deep string `json:"deep"`
	}
	type outer struct {
		Embedded
		In    *inner            `json:"in"`
		List  []inner           `json:"list"`
		ByKey map[string]inner  `json:"byKey"`
		Raw   json.RawMessage   `json:"raw"`
		Any   map[string]any    `json:"any"`
		Plain string            `json:",omitempty"`
		Skip  string            `json:"-"`
		Opt   map[string]string `json:"opt"`
	}
	cases := []struct{ body, bad string }{
		{`{"in":{"name":"a"},"list":[{"name":"b"}],"byKey":{"K":{"name":"c"}},"raw":{"X":1},"any":{"Y":[{"Z":1}]},"Plain":"p","deep":"d","opt":{"A":"b"}}`, ""},
		{`{"in":{"Name":"a"}}`, "in.Name"},
		{`{"list":[{"name":"b"},{"NAME":"c"}]}`, "list.NAME"},
		{`{"byKey":{"k":{"nAme":"c"}}}`, "byKey.k.nAme"},
		{`{"Deep":"d"}`, "Deep"},
		{`{"plain":"p"}`, "plain"},
		{`{"in":null,"list":null}`, ""},
	}
	for _, c := range cases {
		var v outer
		if err := json.Unmarshal([]byte(c.body), &v); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		err := checkKeys([]byte(c.body), reflect.TypeOf(&v))
		ke, _ := err.(*keyError)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.bad != "" && (ke == nil || ke.path != c.bad):
			t.Errorf("%s: %v, want the key %s refused", c.body, err, c.bad)
		}
	}
}
