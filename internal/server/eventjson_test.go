package server

import (
	"reflect"
	"testing"
	"time"

	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
	"bretter/internal/store"
)

// An event's message is written by hand; it must be what encoding/json
// writes, byte for byte, whatever the fields hold.
func TestEventMessageAsEncodingJSON(t *testing.T) {
	at := time.Date(2026, 12, 4, 17, 5, 9, 123_456_789, time.UTC)
	away := at.Add(-time.Minute).In(time.FixedZone("", 5*3600+30*60))
	black, two := "black", 2
	views := []any{nil}
	for _, st := range []interface{ View() any }{mustState(havannah.New(8, true)), dvonn.New(), fanorona.New()} {
		views = append(views, st.View())
	}
	var msgs []eventMessage
	for _, v := range views {
		msgs = append(msgs, eventMessage{Type: "event", Version: 7, Event: store.Event{Seq: 7, Kind: "move", Seat: "black", Move: "e5", At: at},
			Change: &Change{Status: "playing", ToMove: "white", View: v, Updated: at}})
	}
	msgs = append(msgs,
		eventMessage{Type: "event", Version: 1, Event: store.Event{Seq: 1, Kind: "resign", Seat: "white"}},
		eventMessage{Type: "event", Version: 12, Event: store.Event{Seq: 12, Kind: "name", Seat: "white", Move: `<b>"Anna" & Ben</b>` + "\t\u2028é", At: away},
			Change: &Change{Status: "over", ToMove: "", Result: &Result{Winner: "black", Reason: "time"}, View: map[string]string{"stones": `.wb"<`},
				Players: Players{
					White: Presence{Computer: 3, Name: "Computer <3>", Seated: true, Online: true},
					Black: Presence{Name: "Zoë \\ \"quoted\"", Seated: true, Since: &away},
				},
				Clock:    &ClockView{WhiteMS: 0, BlackMS: 61_000, Running: &black, ServerMS: 1_790_000_000_000, HeldMS: 5, InitialMS: 300_000, IncrementMS: 2_000, Days: 3},
				Offer:    &Offer{Kind: "rematch", By: "black", Terms: &Terms{White: "random"}},
				Captured: &two,
				Forces:   "PASS",
				Updated:  away,
			}},
		eventMessage{Type: "event", Version: 3, Event: store.Event{Seq: 3, Kind: "offer", Seat: "black", Move: "draw", At: at},
			Change: &Change{Status: "playing", ToMove: "black", Players: Players{White: Presence{Seated: true, Online: true}},
				Clock: &ClockView{WhiteMS: -5, BlackMS: 10}, Offer: &Offer{Kind: "draw", By: "black"}}},
	)
	for _, m := range msgs {
		if got, want := appendEventMessage(nil, m), encode(m); string(got) != string(want) {
			t.Errorf("written by hand:\n%s\nby encoding/json:\n%s", got, want)
		}
	}
}

// A field added to a message's types must be written by hand too.
func TestEventMessageFieldsAllWritten(t *testing.T) {
	for _, tt := range []struct {
		v      any
		fields int
	}{{eventMessage{}, 4}, {store.Event{}, 5}, {Change{}, 10}, {Result{}, 2}, {Presence{}, 5}, {ClockView{}, 8}, {Players{}, 2}} {
		if n := reflect.TypeOf(tt.v).NumField(); n != tt.fields {
			t.Errorf("%T has %d fields, appendEventMessage writes %d: write the new ones in eventjson.go, then count them here", tt.v, n, tt.fields)
		}
	}
}

func mustState[S any](s S, err error) S {
	if err != nil {
		panic(err)
	}
	return s
}

// BenchmarkEventMessage writes a Havannah move's message by hand and
// through encoding/json, for comparison:
//
//	go test ./internal/server -run '^$' -bench EventMessage
func BenchmarkEventMessage(b *testing.B) {
	st := mustState(havannah.New(8, true))
	for _, m := range []string{"e5", "d4", "f6", "c3"} {
		mv, err := st.ParseMove(m)
		if err == nil {
			err = st.Play(mv)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	at := time.Now()
	m := eventMessage{Type: "event", Version: 4, Event: store.Event{Seq: 4, Kind: "move", Seat: "black", Move: "c3", At: at},
		Change: &Change{Status: "playing", ToMove: "white", View: st.View(), Updated: at,
			Players: Players{White: Presence{Name: "Anna", Seated: true, Online: true}, Black: Presence{Seated: true, Online: true}}}}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			appendEventMessage(make([]byte, 0, 1024), m)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encode(m)
		}
	})
}
