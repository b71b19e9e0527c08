package server

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/worker"
)

// Error messages reach a person (the SPA shows them as they are), so the
// edge turns the domain's wrapped errors into sentences: the sentinel's
// own word ("…: invalid", "…: conflict") adds nothing and goes, the first
// letter is a capital and the end a full stop. The code in the JSON stays
// what machines branch on.

// bareSentinels are sentinel texts that only repeat the error's code.
var bareSentinels = []string{
	worker.ErrInvalid.Error(),
	worker.ErrConflict.Error(),
	worker.ErrAgentBusy.Error(),
	worker.ErrUnsupported.Error(),
	worker.ErrNotFound.Error(),
}

// namedThing is `session "x"`, `worker "y"`: what a not-found error names.
var namedThing = regexp.MustCompile(`^[a-z][a-z -]* "[^"]*"$`)

// sentence turns a message into a sentence for a person.
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	notFound := strings.HasSuffix(msg, ": "+worker.ErrNotFound.Error())
	for _, s := range bareSentinels {
		msg = strings.TrimSuffix(msg, ": "+s)
		msg = strings.TrimPrefix(msg, s+": ")
	}
	if notFound && namedThing.MatchString(msg) {
		msg += " was not found"
	}
	if msg == "" {
		return "Something went wrong."
	}
	r, n := utf8.DecodeRuneInString(msg)
	if unicode.IsLower(r) {
		msg = string(unicode.ToUpper(r)) + msg[n:]
	}
	if !strings.ContainsRune(".!?", rune(msg[len(msg)-1])) {
		msg += "."
	}
	return msg
}

// fieldSentence words a field error so that it names the field: as its
// subject when the message is a predicate ("The cwd field must be an
// absolute path."), before a quoted value (`The cwd "/x" does not
// exist.`), else in parentheses when the message does not name it.
func fieldSentence(fe *worker.FieldError) string {
	for _, verb := range []string{"must ", "is ", "are ", "has "} {
		if strings.HasPrefix(fe.Msg, verb) {
			return "The " + fe.Field + " field " + fe.Msg
		}
	}
	if rest, ok := strings.CutPrefix(fe.Msg, "wrong type: "); ok {
		return "The " + fe.Field + " field has the wrong type (" + rest + ")"
	}
	if strings.HasPrefix(fe.Msg, `"`) { // `"/x" does not exist`: the value is the subject
		return "The " + fe.Field + " " + fe.Msg
	}
	if !strings.Contains(strings.ToLower(fe.Msg), strings.ToLower(fe.Field)) {
		return fe.Msg + " (field " + fe.Field + ")"
	}
	return fe.Msg
}

// jsonKind names a Go type as the JSON value a client should send.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "JSON object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "value of another type"
}

// typeError words a JSON value of the wrong type.
func typeError(ute *json.UnmarshalTypeError) string {
	if ute.Field == "" {
		return "The request body must be a JSON object"
	}
	return "The " + ute.Field + " field must be a " + jsonKind(ute.Type) + ", not a JSON " + ute.Value
}
