package game_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"bretter/game"
)

func TestRecordText(t *testing.T) {
	r := game.Record{Game: "dvonn", Options: game.Options{"b": 2, "a": 1}, Date: "2026-11-30", White: `Anna "A"`, Black: "Ben",
		Winner: "white", Reason: "score", TimeControl: "180+2", Moves: strings.Fields("F5 H5 D3 PASS C3D4")}
	text := r.Text()
	if !strings.Contains(text, "[Options \"a=1 b=2\"]\n") || !strings.Contains(text, "[TimeControl \"180+2\"]\n") || !strings.Contains(text, "\n1. F5\n2. H5\n") {
		t.Fatalf("text:\n%s", text)
	}
	back, err := game.ParseText(text)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	for value, want := range map[string]string{"1/259200": "1/259200", "300": "300", "40/7200:3600": "40/7200:3600", "*180": "*180", "-": "", "?": ""} {
		r, err := game.ParseText("[Game \"dvonn\"]\n[TimeControl \"" + value + "\"]\n")
		if err != nil || r.TimeControl != want {
			t.Errorf("TimeControl %q read as %q, %v; want %q", value, r.TimeControl, err, want)
		}
	}
	// A game begun from given moves says how many; its note is for people
	// and reads back as nothing.
	given := r
	given.Given, given.Note = 3, "The first 3 moves were given.\nSee above."
	text = given.Text()
	if !strings.HasPrefix(text, "# The first 3 moves were given.\n# See above.\n[Game") || !strings.Contains(text, "[Given \"3\"]\n") {
		t.Fatalf("text of a game begun from given moves:\n%s", text)
	}
	back, err = game.ParseText(text)
	if given.Note = ""; err != nil || !reflect.DeepEqual(back, given) {
		t.Fatalf("round trip of a game begun from given moves: %+v, %v", back, err)
	}
	bare, err := game.ParseText("[Game \"Fanorona\"]\n# a comment\nd2-e3A f3-f4W\n  \n3. c3-d3A\n")
	if err != nil || bare.Game != "fanorona" || strings.Join(bare.Moves, " ") != "d2-e3A f3-f4W c3-d3A" {
		t.Fatalf("moves without numbers: %+v, %v", bare, err)
	}
}

func TestParseTextErrors(t *testing.T) {
	for text, want := range map[string]string{
		"":                                        "no [Game",
		"1. e5":                                   "no [Game",
		"[Game havannah]":                         "double quotes",
		"[Game \"havannah\"\n":                    "looks like",
		"[Game \"havannah\"]\n2. e5":              "line 2: move number 2., expected 1",
		"[Game \"x\"]\n1. e5 3. d4":               "move number 3., expected 2",
		"[Game \"x\"]\n1. e5\n[Date \"y\"]":       "line 3: a header line after the moves",
		"[Game \"x\"]\n[Options \"size=x\"]":      "not name=number",
		"[Game \"x\"]\n[Winner \"everyone\"]":     "Winner must be",
		"[Game \"x\"]\n[TimeControl \"5 min\"]":   "TimeControl must be",
		"[Game \"x\"]\n[TimeControl \"300+2.5\"]": "TimeControl must be",
		"[Game \"x\"]\n[TimeControl \"40/\"]":     "TimeControl must be",
		// The last of several would win unseen: each is said once.
		"[Game \"x\"]\n[Black \"a\"]\n[Black \"b\"]":         "line 3: Black is given more than once",
		"[Game \"dvonn\"]\n[Game \"havannah\"]":              "line 2: Game is given more than once",
		"[Game \"x\"]\n[Options \"size=4\"]\n[Options \"\"]": "line 3: Options is given more than once",
		"[Game \"x\"]\n[Options \"size=4 size=5\"]":          "line 2: option size is given more than once",
		// A number without its move is where a record was cut off.
		"[Game \"x\"]\n1. d3-e3W\n2.":    "line 3: move number 2. has no move: the record is cut off",
		"[Game \"x\"]\n1. d3-e3W 2.\n\n": "line 2: move number 2. has no move: the record is cut off",
		"[Game \"x\"]\n1.":               "line 2: move number 1. has no move: the record is cut off",
		"[Game \"x\"]\n1.\n[Date \"y\"]": "line 3: a header line after the moves",
		// More moves given than the record has would start nowhere.
		"[Game \"x\"]\n[Given \"3\"]\n1. a1 2. a2": "the record says moves 1 to 3 were given, but it has only 2",
		"[Game \"x\"]\n[Given \"-1\"]":             "line 2: Given must be a number of moves",
		"[Game \"x\"]\n[Given \"all\"]":            "line 2: Given must be a number of moves",
	} {
		_, err := game.ParseText(text)
		if !errors.Is(err, game.ErrRecord) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseText(%q) = %v, want %q", text, err, want)
		}
	}
}

func FuzzParseText(f *testing.F) {
	f.Add("[Game \"dvonn\"]\n[Options \"size=4\"]\n\n1. F5\n2. H5\n")
	f.Add("[Game \"x\"]\n1. a 2. b")
	f.Add("[Game \"x\"]\n[Options \"\"]")
	f.Add("[Game \"dvonn\"]\n[Options \"a=1 b=2\"]\n[Date \"2026-11-30\"]\n[White \"Anna \\\"A\\\"\"]\n[Black \"Ben\\n\"]\n" +
		"[Winner \"none\"]\n[Reason \"score\"]\n\n1. F5\n2. H5\n3. D3\n4. PASS\n5. C3D4\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := game.ParseText(text)
		if err != nil {
			return
		}
		again, err := game.ParseText(r.Text())
		if err != nil {
			t.Fatalf("a parsed record does not read back: %v\n%s", err, r.Text())
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("round trip changed the record:\n%#v\n%#v", r, again)
		}
	})
}
