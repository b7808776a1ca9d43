package server

import (
	"strconv"
	"time"

	"bretter/internal/store"
)

// An event's message goes to every page of its game after every move, so
// it is written here field by field, exactly as encoding/json would write
// it: through reflection it was a twentieth of the site's processor time in
// games played flat out, and the garbage of its buffers more. Only the
// parts that differ from game to game (the board's view) or are rare (an
// offer) still go through encoding/json. TestEventMessageAsEncodingJSON
// holds the two to the same bytes.

// appendEventMessage appends m, encoded, to b.
func appendEventMessage(b []byte, m eventMessage) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, m.Type)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(m.Version), 10)
	b = append(b, `,"event":`...)
	b = appendEvent(b, m.Event)
	if m.Change != nil {
		b = append(b, `,"change":`...)
		b = appendChange(b, m.Change)
	}
	return append(b, '}')
}

func appendEvent(b []byte, e store.Event) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, e.Kind)
	b = append(b, `,"seat":`...)
	b = appendJSONString(b, e.Seat)
	if e.Move != "" {
		b = append(b, `,"move":`...)
		b = appendJSONString(b, e.Move)
	}
	b = append(b, `,"at":`...)
	b = appendJSONTime(b, e.At)
	return append(b, '}')
}

func appendChange(b []byte, c *Change) []byte {
	b = append(b, `{"status":`...)
	b = appendJSONString(b, c.Status)
	b = append(b, `,"to_move":`...)
	b = appendJSONString(b, c.ToMove)
	b = append(b, `,"result":`...)
	if c.Result == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"winner":`...)
		b = appendJSONString(b, c.Result.Winner)
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, c.Result.Reason)
		b = append(b, '}')
	}
	b = append(b, `,"view":`...)
	b = append(b, encode(c.View)...)
	b = append(b, `,"players":{"white":`...)
	b = appendPresence(b, &c.Players.White)
	b = append(b, `,"black":`...)
	b = appendPresence(b, &c.Players.Black)
	b = append(b, '}')
	if c.Clock != nil {
		b = append(b, `,"clock":`...)
		b = appendClock(b, c.Clock)
	}
	b = append(b, `,"offer":`...)
	if c.Offer == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, encode(c.Offer)...)
	}
	if c.Captured != nil {
		b = append(b, `,"captured":`...)
		b = strconv.AppendInt(b, int64(*c.Captured), 10)
	}
	if c.Forces != "" {
		b = append(b, `,"forces":`...)
		b = appendJSONString(b, c.Forces)
	}
	b = append(b, `,"updated":`...)
	b = appendJSONTime(b, c.Updated)
	return append(b, '}')
}

func appendPresence(b []byte, p *Presence) []byte {
	b = append(b, '{')
	if p.Computer != 0 {
		b = append(b, `"computer":`...)
		b = strconv.AppendInt(b, int64(p.Computer), 10)
		b = append(b, ',')
	}
	if p.Name != "" {
		b = append(b, `"name":`...)
		b = appendJSONString(b, p.Name)
		b = append(b, ',')
	}
	b = append(b, `"seated":`...)
	b = strconv.AppendBool(b, p.Seated)
	b = append(b, `,"online":`...)
	b = strconv.AppendBool(b, p.Online)
	if p.Since != nil {
		b = append(b, `,"since":`...)
		b = appendJSONTime(b, *p.Since)
	}
	return append(b, '}')
}

func appendClock(b []byte, c *ClockView) []byte {
	b = append(b, `{"white_ms":`...)
	b = strconv.AppendInt(b, c.WhiteMS, 10)
	b = append(b, `,"black_ms":`...)
	b = strconv.AppendInt(b, c.BlackMS, 10)
	b = append(b, `,"running":`...)
	if c.Running == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *c.Running)
	}
	b = append(b, `,"server_ms":`...)
	b = strconv.AppendInt(b, c.ServerMS, 10)
	for _, f := range [...]struct {
		name string
		v    int64
	}{{`,"held_ms":`, c.HeldMS}, {`,"initial_ms":`, c.InitialMS}, {`,"increment_ms":`, c.IncrementMS}, {`,"days":`, int64(c.Days)}} {
		if f.v != 0 {
			b = append(b, f.name...)
			b = strconv.AppendInt(b, f.v, 10)
		}
	}
	return append(b, '}')
}

// appendJSONTime appends t as time.Time's MarshalJSON writes it, for the
// years it can write (0 to 9999); others go its own way, to its error.
func appendJSONTime(b []byte, t time.Time) []byte {
	if y := t.Year(); y < 0 || y > 9999 {
		return append(b, encode(t)...)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
