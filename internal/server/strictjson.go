package server

import (
	"bytes"
	"cmp"
	"encoding"
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

var (
	errMoreThanOne = errors.New("more than one value")
	errNotObject   = errors.New("it must be an object")
)

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
	// null would leave v as it was: a request is an object.
	if string(bytes.TrimSpace(data)) == "null" {
		return errNotObject
	}
	return checkNames(data, reflect.TypeOf(v))
}

// checkNames checks that the members of the objects in data, a value of
// type t that encoding/json has read already, are named exactly as the
// fields of the structs they are read into, and that no object, a map's
// included, names a member twice.
func checkNames(data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !checked(t) || string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return err
		}
		for i, item := range items {
			if err := checkNames(item, t.Elem()); err != nil {
				return fmt.Errorf("in item %d: %w", i+1, err)
			}
		}
		return nil
	case reflect.Map:
		seen := map[string]bool{}
		return eachName(data, func(key, value []byte) error {
			if seen[string(key)] {
				return fmt.Errorf("%q is given twice", key)
			}
			seen[string(key)] = true
			return inMember(key, checkNames(value, t.Elem()))
		})
	}
	fields := fieldsOf(t)
	var few [64]bool // by the field's number
	seen := few[:]
	if len(fields) > len(few) {
		seen = make([]bool, len(fields))
	}
	return eachName(data, func(key, value []byte) error {
		f, ok := fields[string(key)]
		switch {
		case !ok:
			return unknownField(key, fields)
		case seen[f.n]:
			return fmt.Errorf("%q is given twice", key)
		}
		seen[f.n] = true
		return inMember(key, checkNames(value, f.typ))
	})
}

// inMember says where a problem found in the value of member key lies.
func inMember(key []byte, problem error) error {
	if problem == nil {
		return nil
	}
	return fmt.Errorf("in %q: %w", key, problem)
}

// eachName calls f with each member of the object data until f finds a
// problem, which it returns, said of the member's value where it lies
// deeper.
func eachName(data []byte, f func(key, value []byte) error) error {
	var problem error
	err := jsonscan.EachMember(data, func(key, value []byte) error {
		if problem = f(key, value); problem != nil {
			return jsonscan.ErrStop
		}
		return nil
	})
	if err != nil {
		return err
	}
	return problem
}

var (
	jsonReader = reflect.TypeFor[json.Unmarshaler]()
	textReader = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checked reports whether checkNames looks into values of type t: objects
// read into structs or maps, and lists of them. A type that reads itself
// (time.Time, json.RawMessage) is left to its own reading.
func checked(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p := reflect.PointerTo(t); p.Implements(jsonReader) || p.Implements(textReader) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return true
	case reflect.Slice, reflect.Array:
		return checked(t.Elem())
	}
	return false
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
	structFields.Store(t, fields)
	return fields
}

// addFields adds the fields of struct type t to fields as encoding/json
// reads them: a struct embedded without a name of its own lends its
// fields, a field nearer t hides those deeper down, and of several at the
// same depth the one with a name in its tag is taken, or else none.
func addFields(t reflect.Type, fields map[string]field) {
	hidden := map[string]bool{} // names taken or dropped nearer t
	done := map[reflect.Type]bool{}
	for level := []reflect.Type{t}; len(level) > 0; {
		for _, st := range level {
			done[st] = true
		}
		var next []reflect.Type
		type candidate struct {
			typ    reflect.Type
			tagged bool
		}
		found := map[string][]candidate{}
		var names []string // in the order found
		for _, st := range level {
			for f := range st.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				switch {
				case name == "-":
				case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
					// A struct embedded twice at one depth lends its
					// names twice, and they cancel out.
					if !done[ft] {
						next = append(next, ft)
					}
				case !f.IsExported() || hidden[cmp.Or(name, f.Name)]:
				default:
					key := cmp.Or(name, f.Name)
					if _, ok := found[key]; !ok {
						names = append(names, key)
					}
					found[key] = append(found[key], candidate{f.Type, name != ""})
				}
			}
		}
		for _, name := range names {
			hidden[name] = true
			c := found[name]
			if len(c) > 1 {
				c = slices.DeleteFunc(c, func(c candidate) bool { return !c.tagged })
			}
			if len(c) == 1 {
				fields[name] = field{len(fields), c[0].typ}
			}
		}
		level = next
	}
}
