package server

import (
	"testing"
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
	for _, tt := range []struct{ data, problem string }{
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
	} {
		var r request
		got := ""
		if err := decodeStrict([]byte(tt.data), &r); err != nil {
			got = jsonProblem(err)
		}
		if got != tt.problem {
			t.Errorf("%q: %q, want %q", tt.data, got, tt.problem)
		}
	}
}
