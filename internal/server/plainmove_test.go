package server

import "testing"

// plainMoveCases are messages of every shape the general way reads or
// refuses; plainMove must read a few of them exactly as it does and
// leave it the rest.
var plainMoveCases = []struct {
	msg   string
	plain bool
}{
	{`{"type":"move","id":7,"ply":12,"move":"e5"}`, true},
	{`{ "move" : "d4-d6" , "ply":0,"id":-3, "type":"move" }`, true},
	{`{"type":"move","id":9223372036854775807,"ply":1,"move":"a1"}`, true},
	{`{"type":"move","id":9223372036854775808,"ply":1,"move":"a1"}`, false}, // too large
	{`{"type":"move","id":1,"ply":1,"move":"a1","move":"b2"}`, false},       // twice
	{`{"type":"move","id":1,"ply":1}`, false},                               // no move
	{`{"type":"move","ply":1,"move":"a1"}`, false},                          // no id: the general way reads 0
	{`{"type":"move","id":1,"ply":1,"move":"a1","text":"x"}`, false},        // a member of another type
	{`{"type":"move","id":1,"ply":1.0,"move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":1e1,"move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":01,"move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":+1,"move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":"1","move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":null,"move":"a1"}`, false},
	{`{"type":"move","id":1,"ply":1,"move":"a\u0031"}`, false}, // escaped
	{`{"type":"move","id":1,"ply":1,"move":"é"}`, false},
	{`{"type":"move","id":1,"ply":1,"move":""}`, true}, // read, then refused as the general way refuses it
	{`{"type":"mov\u0065","id":1,"ply":1,"move":"a1"}`, false},
	{`{"type":"resign","id":1}`, false},
	{`{"type":"move","id":1,"ply":1,"move":"a1"} {}`, false},
	{`{"type":"move","id":1,"ply":1,"move":"a1"`, false},
	{`[{"type":"move","id":1,"ply":1,"move":"a1"}]`, false},
	{`{"type":"move","id":1,"ply":1,"move":["a1"]}`, false},
	{`{"Type":"move","id":1,"ply":1,"move":"a1"}`, false},
}

func TestPlainMoveReadsAsTheGeneralWay(t *testing.T) {
	for _, tt := range plainMoveCases {
		id, ply, move, ok := plainMove([]byte(tt.msg))
		if ok != tt.plain {
			t.Errorf("plainMove(%s) took it: %v, want %v", tt.msg, ok, tt.plain)
			continue
		}
		if ok {
			agreeWithTheGeneralWay(t, tt.msg, id, ply, move)
		}
	}
}

// agreeWithTheGeneralWay fails unless decodeStrict reads msg as a move
// with id, ply and move, and finds no member a move does not have.
func agreeWithTheGeneralWay(t *testing.T, msg string, id int64, ply int, move string) {
	t.Helper()
	var m clientMessage
	if err := decodeStrict([]byte(msg), &m); err != nil {
		t.Errorf("plainMove took %s, which decodeStrict refuses: %v", msg, err)
		return
	}
	if name := foreignMember(m.Type, []byte(msg)); name != "" {
		t.Errorf("plainMove took %s, which has %q", msg, name)
	}
	if m.Type != "move" || m.ID != id || m.Ply == nil || *m.Ply != ply || m.Move != move {
		t.Errorf("plainMove(%s) = %d, %d, %q; decodeStrict: %+v", msg, id, ply, move, m)
	}
}

func FuzzPlainMove(f *testing.F) {
	for _, tt := range plainMoveCases {
		f.Add(tt.msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if id, ply, move, ok := plainMove([]byte(msg)); ok {
			agreeWithTheGeneralWay(t, msg, id, ply, move)
		}
	})
}
