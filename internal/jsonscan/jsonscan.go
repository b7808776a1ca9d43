// Package jsonscan takes a JSON object apart at its top level without
// decoding it: a member's value is handed on as it is written, for the
// caller to decode, look into or leave alone.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrStop ends EachMember early, without an error.
var ErrStop = errors.New("stop")

// EachMember calls f with the key (unescaped) and the value (as written) of each
// member of the JSON object data, in order, until f returns an error.
// It checks the object's structure: strings and brackets that end, a
// colon after each key, a comma between members and nothing after the
// object. What f leaves undecoded is not checked further.
func EachMember(data []byte, f func(key, value []byte) error) error {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return errors.New("not a JSON object")
	}
	comma := false // the last member ended with one
	for i = skipSpace(data, i+1); i < len(data) && (data[i] != '}' || comma); {
		if data[i] != '"' {
			return fmt.Errorf("no key at byte %d", i)
		}
		keyEnd := stringEnd(data, i)
		if keyEnd < 0 {
			return errors.New("a key does not end")
		}
		// The key as written, unless it needs unescaping: most callers
		// only compare it, which then costs no copy.
		key := data[i+1 : keyEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if err := json.Unmarshal(data[i:keyEnd], &k); err != nil {
				return err
			}
			key = []byte(k)
		}
		colon := skipSpace(data, keyEnd)
		if colon == len(data) || data[colon] != ':' {
			return fmt.Errorf("no colon after the key %q", key)
		}
		start := skipSpace(data, colon+1)
		end := valueEnd(data, start)
		if end <= start {
			return fmt.Errorf("the value of %q does not end", key)
		}
		if err := f(key, data[start:end]); err == ErrStop {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		i, comma = skipSpace(data, end), false
		switch {
		case i < len(data) && data[i] == ',':
			i, comma = skipSpace(data, i+1), true
		case i == len(data) || data[i] != '}':
			return fmt.Errorf("no comma after the value of %q", key)
		}
	}
	if i == len(data) {
		return errors.New("the object does not end")
	}
	if skipSpace(data, i+1) != len(data) {
		return errors.New("more after the object")
	}
	return nil
}

// stringEnd reports where the string that begins at i ends (just after its
// closing quote), or -1 if it does not.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// valueEnd reports where the value that begins at i ends, or -1 if it
// does not.
func valueEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return i // the end of a number, literal or container around
			}
			if depth == 0 {
				return i + 1
			}
		case '"':
			if i = stringEnd(data, i); i < 0 {
				return -1
			}
			if depth == 0 {
				return i
			}
			i--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	if depth != 0 {
		return -1
	}
	return i
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
