package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// encoding/json matches object keys to struct fields case-insensitively,
// so {"CWD": …} fills Cwd. API.md's JSON is camelCase and exact: checkKeys
// walks a body that already decoded into a value of type t and refuses the
// first key that names no field exactly.

// keyError is a key that matches no field of its object exactly.
type keyError struct {
	path  string // the key, dotted after its parents' keys
	fixed string // the field it matches case-insensitively, "" for none
}

func (e *keyError) Error() string {
	if e.fixed != "" {
		return fmt.Sprintf("unknown field %q: field names are case-sensitive; did you mean %q?", e.path, e.fixed)
	}
	return fmt.Sprintf("unknown field %q (check its spelling)", e.path)
}

// checkKeys returns a *keyError for the first key of data that matches no
// field of t exactly. data must be a JSON value that decoded into t without
// error: the walk follows t, and skips values whose type has no fields.
func checkKeys(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	return walkValue(dec, t, "")
}

func walkValue(dec *json.Decoder, t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !hasFields(t) {
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		err = walkObject(dec, t, path)
	case json.Delim('['):
		err = walkArray(dec, t.Elem(), path)
	default:
		return nil // null, or a scalar the decoder already accepted
	}
	if err != nil {
		return err
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

func walkObject(dec *json.Decoder, t reflect.Type, path string) error {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		sub := key
		if path != "" {
			sub = path + "." + key
		}
		var ft reflect.Type
		if t.Kind() == reflect.Map {
			ft = t.Elem()
		} else if ft = fieldType(t, key); ft == nil {
			return &keyError{path: sub, fixed: foldedField(t, key)}
		}
		if err := walkValue(dec, ft, sub); err != nil {
			return err
		}
	}
	return nil
}

func walkArray(dec *json.Decoder, elem reflect.Type, path string) error {
	for dec.More() {
		if err := walkValue(dec, elem, path); err != nil {
			return err
		}
	}
	return nil
}

// hasFields reports whether a value of type t can hold an object whose
// keys are matched to struct fields, so that its keys need checking.
func hasFields(t reflect.Type) bool {
	return hasFieldsDepth(t, 0)
}

func hasFieldsDepth(t reflect.Type, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return false // decodes itself: its keys are its own business
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return hasFieldsDepth(t.Elem(), depth+1)
	}
	return false
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// fieldType returns the type of t's field whose JSON name is exactly key.
func fieldType(t reflect.Type, key string) reflect.Type {
	for _, f := range reflect.VisibleFields(t) {
		if name, ok := jsonName(f); ok && name == key {
			return f.Type
		}
	}
	return nil
}

// foldedField returns the JSON name of t's field that key matches only
// case-insensitively, for the error message.
func foldedField(t reflect.Type, key string) string {
	for _, f := range reflect.VisibleFields(t) {
		if name, ok := jsonName(f); ok && strings.EqualFold(name, key) {
			return name
		}
	}
	return ""
}

// jsonName is the key encoding/json uses for f; false when f is not
// decoded from a key of its own.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if ft := f.Type; f.Anonymous && name == "" && (ft.Kind() == reflect.Struct || ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct) {
		return "", false // embedded: its fields are visible in its place
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}
