package dvonn

import (
	"encoding/json"
	"testing"
)

func TestViewJSON(t *testing.T) {
	tests := []struct {
		name string
		s    func(*testing.T) *State
		want string
	}{
		{"start", func(*testing.T) *State { return New() },
			`{"phase":"placement","stacks":[],"removed":[],"score":{"white":0,"black":0},` +
				`"reserve":{"white":23,"black":23,"red":3},"place":"red"}`},
		{"placing", func(t *testing.T) *State {
			s := New()
			play(t, s, "c3", "D3", "E3", "a1")
			return s
		},
			`{"phase":"placement","stacks":[{"space":"A1","height":1,"top":"black","dvonns":0},` +
				`{"space":"C3","height":1,"top":"red","dvonns":1},{"space":"D3","height":1,"top":"red","dvonns":1},` +
				`{"space":"E3","height":1,"top":"red","dvonns":1}],"last":{"to":"A1"},"removed":[],` +
				`"score":{"white":0,"black":1},"reserve":{"white":23,"black":22,"red":0},"place":"white"}`},
		{"cut off", func(t *testing.T) *State {
			s := position(t, carryPosition, 51)
			play(t, s, "B3D5")
			return s
		},
			`{"phase":"stacking","stacks":[{"space":"D5","height":3,"top":"white","dvonns":2}],` +
				`"last":{"from":"B3","to":"D5"},"removed":[{"space":"A3","height":1,"top":"black","dvonns":0}],` +
				`"score":{"white":3,"black":0}}`},
		{"pass", func(t *testing.T) *State {
			s := position(t, passPosition, 50)
			play(t, s, "PASS")
			return s
		},
			`{"phase":"stacking","stacks":[{"space":"C3","height":5,"top":"black","dvonns":0},` +
				`{"space":"D3","height":1,"top":"white","dvonns":0},{"space":"E3","height":1,"top":"red","dvonns":1}],` +
				`"last":{"pass":true},"removed":[],"score":{"white":1,"black":5}}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.s(t).View())
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s:\n got  %s\n want %s", tt.name, b, tt.want)
		}
	}
}
