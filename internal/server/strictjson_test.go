package server

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDecodeStrict(t *testing.T) {
	type inner struct {
		Days *int `json:"days"`
	}
	type Common struct {
		ID int `json:"id"`
	}
	type request struct {
		Common
		Move   string  `json:"move"`
		Clock  *inner  `json:"clock"`
		Skip   string  `json:"-"`
		hidden string  // unexported: never read from JSON
		Plain  *string // no tag: named as the field
	}
	checkProblems[request](t, []strictCase{
		{`{"id":3,"move":"a1","clock":{"days":3},"Plain":"x"}`, ""},
		{` {"clock":null} `, ""},
		{`{}`, ""},
		{``, "there is nothing"},
		{"  \n", "there is nothing"},
		{`{"move":"a1"`, "it ends too soon"},
		{`{"move":"a1"} {}`, "more than one value"},
		{`[1]`, "it must be an object"},
		{`{"move":1}`, `"move" must be a string`},
		{`{"x":1}`, `unknown field "x"`},
		{`{"Move":"a1"}`, `unknown field "Move" (it is written "move")`},
		{`{"ID":1}`, `unknown field "ID" (it is written "id")`},
		{`{"plain":"x"}`, `unknown field "plain" (it is written "Plain")`},
		{`{"Skip":"x"}`, `unknown field "Skip"`},
		{`{"hidden":"x"}`, `unknown field "hidden"`},
		{`{"move":"e5","move":"a1"}`, `"move" is given twice`},
		{`{"mov\u0065":"e5","move":"a1"}`, `"move" is given twice`},
		{`{"clock":{"Days":3}}`, `in "clock": unknown field "Days" (it is written "days")`},
		{`{"clock":{"days":3,"days":5}}`, `in "clock": "days" is given twice`},
		{"null\n", "it must be an object"},
	})
}

// Objects deeper down are checked too: in lists and maps, and in structs
// embedded by pointer. What reads itself is left alone, and a field
// nearer the top hides an embedded one of its name.
func TestDecodeStrictDeeper(t *testing.T) {
	type item struct {
		A int `json:"a"`
	}
	type Base struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type request struct {
		*Base
		B     string          `json:"b"` // hides Base's
		Items []item          `json:"items"`
		ByKey map[string]item `json:"by_key"`
		Sizes map[string]int  `json:"sizes"`
		When  time.Time       `json:"when"`
		Lists [][]item        `json:"lists"`
	}
	checkProblems[request](t, []strictCase{
		{`{"a":1,"b":"x","items":[{"a":1},{"a":2}],"by_key":{"k":{"a":1}},"sizes":{"x":1,"y":2},"when":"2026-01-02T03:04:05Z","lists":[[{"a":1}]]}`, ""},
		{`{"items":[{"a":1},{"a":2,"x":3}]}`, `in "items": in item 2: unknown field "x"`},
		{`{"items":[{"A":1}]}`, `in "items": in item 1: unknown field "A" (it is written "a")`},
		{`{"lists":[[{"a":1,"a":2}]]}`, `in "lists": in item 1: in item 1: "a" is given twice`},
		{`{"by_key":{"k":{"x":1}}}`, `in "by_key": in "k": unknown field "x"`},
		{`{"by_key":{"k":{"a":1},"k":{"a":2}}}`, `in "by_key": "k" is given twice`},
		{`{"sizes":{"x":1,"x":2}}`, `in "sizes": "x" is given twice`},
		{`{"a":1,"a":2}`, `"a" is given twice`},
		{`{"b":"x","b":"y"}`, `"b" is given twice`},
		{`{"items":null,"by_key":null}`, ""},
	})
}

// A struct of many fields is checked as one of few.
func TestDecodeStrictManyFields(t *testing.T) {
	var fields []reflect.StructField
	var members []string
	for i := range 70 {
		name := fmt.Sprintf("f%d", i)
		fields = append(fields, reflect.StructField{Name: strings.ToUpper(name), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + name + `"`)})
		members = append(members, fmt.Sprintf(`"%s":%d`, name, i))
	}
	v := reflect.New(reflect.StructOf(fields)).Interface()
	if err := decodeStrict([]byte("{"+strings.Join(members, ",")+"}"), v); err != nil {
		t.Fatalf("70 fields: %v", err)
	}
	if err := decodeStrict([]byte(`{"f69":1,"f69":2}`), v); err == nil || jsonProblem(err) != `"f69" is given twice` {
		t.Fatalf("the 70th field twice: %v", err)
	}
}

// Embedded structs lend their fields as encoding/json reads them: the
// nearest of a name wins, and of two at one depth the tagged one, or
// neither.
func TestDecodeStrictEmbedded(t *testing.T) {
	type Inner struct {
		N int `json:"n"`
	}
	type D struct {
		X int `json:"x"`
	}
	type B struct{ D }
	type C struct {
		X Inner `json:"x"`
	}
	type E1 struct{ Y int }
	type E2 struct{ Y string }
	type H1 struct {
		U int `json:"U"`
	}
	type H2 struct{ U string }
	type T1 struct {
		Z int `json:"z"`
	}
	type T2 struct{ Z string }
	type Q struct{ Q int }
	type QA struct{ Q }
	type QB struct{ Q }
	type request struct {
		QA // Q twice at one depth: neither
		QB
		B  // x, two deep: hidden
		C  // x, one deep
		E1 // Y twice at one depth, untagged: neither
		E2
		T1 // z and Z are two names
		T2
		H1 // U tagged beats U untagged at one depth
		H2
	}
	checkProblems[request](t, []strictCase{
		{`{"x":{"n":1}}`, ""},
		{`{"x":{"n":1,"bogus":2}}`, `in "x": unknown field "bogus"`},
		{`{"X":{"n":1}}`, `unknown field "X" (it is written "x")`},
		{`{"Y":1}`, `unknown field "Y"`},
		{`{"z":1,"Z":"a"}`, ""},
		{`{"U":1}`, ""},
		{`{"Q":5}`, `unknown field "Q"`},
	})
}

type strictCase struct{ data, problem string }

// checkProblems decodes each case's data into a new T, and checks what
// is said to be wrong with it ("": nothing).
func checkProblems[T any](t *testing.T, cases []strictCase) {
	t.Helper()
	for _, tt := range cases {
		var v T
		got := ""
		if err := decodeStrict([]byte(tt.data), &v); err != nil {
			got = jsonProblem(err)
		}
		if got != tt.problem {
			t.Errorf("%q: %q, want %q", tt.data, got, tt.problem)
		}
	}
}
