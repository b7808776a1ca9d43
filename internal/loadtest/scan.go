package loadtest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"

	"bretter/internal/jsonscan"
)

// A player gets every legal move with each event, a list that is most of
// the message, and the board's picture, which it does not need. Decoding
// a whole message with encoding/json went over all of it twice and took a
// third of the load command's time, which the command then could not
// leave to the site it measures. Messages are therefore taken apart at
// their top level (jsonscan), and only the members the players
// and watchers read are decoded; the legal moves are kept as they are
// written, for randomMove.

// playerView decodes what a player reads of a message.
func playerView(data []byte) (*message, error) {
	m := new(message)
	err := jsonscan.EachMember(data, func(key, value []byte) error {
		switch string(key) {
		case "type":
			return decode(value, &m.Type)
		case "version":
			return decode(value, &m.Version)
		case "code":
			return decode(value, &m.Code)
		case "error":
			return decode(value, &m.Error)
		case "event":
			return decodeObject(value, &m.Event, eventKeys, (*event).fields)
		case "state":
			return json.Unmarshal(value, &m.State)
		case "change":
			return decodeObject(value, &m.Change, changeKeys, (*change).fields)
		case "legal":
			m.Legal = json.RawMessage(value)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// decode decodes a JSON string or number into v, at once when it is
// written plainly: encoding/json checks and scans it twice first, which
// for a few bytes costs more than the decoding.
func decode[T string | int](value []byte, v *T) error {
	switch v := any(v).(type) {
	case *string:
		if n := len(value); n >= 2 && value[0] == '"' && value[n-1] == '"' && bytes.IndexByte(value, '\\') < 0 {
			*v = string(value[1 : n-1])
			return nil
		}
	case *int:
		if n, err := strconv.Atoi(string(value)); err == nil {
			*v = n
			return nil
		}
	}
	return json.Unmarshal(value, v)
}

// decodeObject decodes value, an object or null, into *p (new unless
// there is one), reading only the string members named by keys, into the
// fields of the same place.
func decodeObject[T any](value []byte, p **T, keys [2]string, fields func(*T) [2]*string) error {
	if string(value) == "null" {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	to := fields(*p)
	return jsonscan.EachMember(value, func(key, value []byte) error {
		for i, k := range keys {
			if string(key) == k {
				return decode(value, to[i])
			}
		}
		return nil
	})
}

// watcherView reads only what a watcher needs from a message: its type
// and its event, which come first. The rest, such as the state a new
// watcher gets, which grows with the game, is not even looked at.
func watcherView(data []byte) (*message, error) {
	m := new(message)
	err := jsonscan.EachMember(data, func(key, value []byte) error {
		var err error
		switch string(key) {
		case "type":
			err = decode(value, &m.Type)
		case "version":
			err = decode(value, &m.Version)
		case "event":
			err = decodeObject(value, &m.Event, eventKeys, (*event).fields)
		}
		if err == nil && m.Type != "" && (m.Type != "event" || m.Event != nil) {
			return jsonscan.ErrStop
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// randomMove picks one of a JSON array of strings at random, decoding
// only that one. It reports false when the array holds no string.
func randomMove(list json.RawMessage) (string, bool) {
	n := 0
	eachString(list, func(int, int) bool { n++; return true })
	if n == 0 {
		return "", false
	}
	k := rand.IntN(n)
	var move string
	var err error
	eachString(list, func(start, end int) bool {
		if k > 0 {
			k--
			return true
		}
		err = json.Unmarshal(list[start:end], &move)
		return false
	})
	return move, err == nil
}

// eachString calls f with where each string of a JSON array begins and
// ends (quotes included), until f returns false.
func eachString(list []byte, f func(start, end int) bool) {
	start := -1
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case start < 0 && c == '"':
			start = i
		case start >= 0 && c == '\\':
			i++
		case start >= 0 && c == '"':
			if !f(start, i+1) {
				return
			}
			start = -1
		}
	}
}
