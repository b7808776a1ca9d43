package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"bretter/internal/jsonscan"
)

var errMoreThanOne = errors.New("more than one value")

// decodeStrict decodes data, one JSON value, into v, refusing members v
// does not have. encoding/json also takes a member's name in any case
// ("Type" for "type") and the last of a name given twice: both are
// refused too, as a client that sends them may mean something else.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errMoreThanOne
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
	var seen []string
	var problem error
	err := jsonscan.EachMember(data, func(key string, value []byte) error {
		ft, ok := fields[key]
		switch {
		case !ok:
			problem = fmt.Errorf("unknown field %q (names are written in lower case)", key)
		case slices.Contains(seen, key):
			problem = fmt.Errorf("%q is given twice", key)
		default:
			seen = append(seen, key)
			if err := checkNames(value, ft); err != nil {
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

var structFields sync.Map // reflect.Type → map[string]reflect.Type

// fieldsOf maps the JSON names of struct type t's fields to their types.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := structFields.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
	addFields(t, fields)
	structFields.Store(t, fields)
	return fields
}

// addFields adds the fields of struct type t to fields, those of a
// struct embedded without a name of its own as if they were t's, as
// encoding/json reads them.
func addFields(t reflect.Type, fields map[string]reflect.Type) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			addFields(f.Type, fields)
		case !f.IsExported():
		case name == "":
			fields[f.Name] = f.Type
		default:
			fields[name] = f.Type
		}
	}
}
