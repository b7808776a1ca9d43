package server

import (
	"errors"
	"strconv"

	"bretter/internal/jsonscan"
)

// plainMove reads a move message written as pages write it: exactly the
// members "type" ("move"), "id", "ply" and "move", each once, the numbers
// as whole numbers and the move as a string of printable ASCII without
// escapes. It reports false for anything else, which then takes the
// general way (decodeStrict), with its checks and its words for what is
// wrong. A move is most of what pages send, and the general way went over
// each one three times, a thirtieth of the site's time in games played
// flat out.
func plainMove(data []byte) (id int64, ply int, move string, ok bool) {
	var seen [4]bool // type, id, ply, move
	errNotPlain := errors.New("not plain")
	err := jsonscan.EachMember(data, func(key, value []byte) error {
		n := -1
		switch string(key) {
		case "type":
			n = 0
			if string(value) != `"move"` {
				return errNotPlain
			}
		case "id":
			n = 1
			v, ok := plainInt(value)
			if !ok {
				return errNotPlain
			}
			id = v
		case "ply":
			n = 2
			v, ok := plainInt(value)
			if !ok || int64(int(v)) != v {
				return errNotPlain
			}
			ply = int(v)
		case "move":
			n = 3
			s, ok := plainString(value)
			if !ok {
				return errNotPlain
			}
			move = s
		}
		if n < 0 || seen[n] {
			return errNotPlain
		}
		seen[n] = true
		return nil
	})
	return id, ply, move, err == nil && seen == [4]bool{true, true, true, true}
}

// plainInt reads a JSON number written as a whole number (no fraction,
// exponent or leading zero), as encoding/json would into an int64.
func plainInt(value []byte) (int64, bool) {
	digits := value
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(value), 10, 64)
	return v, err == nil
}

// plainString reads a JSON string of printable ASCII with nothing
// escaped, which reads as it is written.
func plainString(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return "", false
	}
	s := value[1 : len(value)-1]
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(s), true
}
