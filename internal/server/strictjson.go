package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"bretter/internal/jsonscan"
)

var errMoreThanOne = errors.New("more than one value")

// decodeStrict decodes data, one JSON value, into v, refusing members v
// does not have. encoding/json alone would take a member's name in any
// case ("Type" for "type") and the last of a name given twice: both are
// refused too, as a client that sends them may mean something else.
func decodeStrict(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		// What is wrong, in the words jsonProblem has for it.
		var syntax *json.SyntaxError
		switch {
		case !errors.As(err, &syntax):
		case len(bytes.TrimSpace(data)) == 0:
			return io.EOF
		case strings.HasSuffix(syntax.Error(), "after top-level value"):
			return errMoreThanOne
		case strings.HasSuffix(syntax.Error(), "unexpected end of JSON input"):
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return checkNames(data, reflect.TypeOf(v))
}

// checkNames checks that the members of the objects in data, a value of
// type t that encoding/json has read already, are named exactly as t's
// fields, each once.
func checkNames(data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || string(data) == "null" {
		return nil // a json.RawMessage is checked where it is decoded
	}
	fields := fieldsOf(t)
	var seen uint64 // by the field's number
	var problem error
	err := jsonscan.EachMember(data, func(key, value []byte) error {
		f, ok := fields[string(key)]
		switch {
		case !ok:
			problem = unknownField(key, fields)
		case seen&(1<<f.n) != 0:
			problem = fmt.Errorf("%q is given twice", key)
		default:
			seen |= 1 << f.n
			if err := checkNames(value, f.typ); err != nil {
				problem = fmt.Errorf("in %q: %w", key, err)
			}
		}
		if problem != nil {
			return jsonscan.ErrStop
		}
		return nil
	})
	if err != nil {
		return err
	}
	return problem
}

// unknownField says that no field is named key, and how to write the
// one it may mean.
func unknownField(key []byte, fields map[string]field) error {
	for name := range fields {
		if strings.EqualFold(name, string(key)) {
			return fmt.Errorf("unknown field %q (it is written %q)", key, name)
		}
	}
	return fmt.Errorf("unknown field %q", key)
}

// A field is what checkNames needs of a struct's field: its number, for
// telling whether it was seen, and its type.
type field struct {
	n   int
	typ reflect.Type
}

var structFields sync.Map // reflect.Type → map[string]field

// fieldsOf maps the JSON names of struct type t's fields to them.
func fieldsOf(t reflect.Type) map[string]field {
	if f, ok := structFields.Load(t); ok {
		return f.(map[string]field)
	}
	fields := map[string]field{}
	addFields(t, fields)
	if len(fields) > 64 {
		panic(fmt.Sprintf("%v: more fields than checkNames can tell apart", t))
	}
	structFields.Store(t, fields)
	return fields
}

// addFields adds the fields of struct type t to fields, those of a
// struct embedded without a name of its own as if they were t's, as
// encoding/json reads them.
func addFields(t reflect.Type, fields map[string]field) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			addFields(f.Type, fields)
		case !f.IsExported():
		case name == "":
			fields[f.Name] = field{len(fields), f.Type}
		default:
			fields[name] = field{len(fields), f.Type}
		}
	}
}
