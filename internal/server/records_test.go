package server

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"bretter/game"
)

func TestPositionsAndRecords(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	ts.play(t, g, "h3 g4 f3")
	ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, nil)

	var p struct {
		Version   int
		Moves     []string
		Positions []struct {
			View   struct{ Stones, Last string }
			ToMove string `json:"to_move"`
		}
	}
	if code := ts.call(t, "GET", "/api/games/"+g.id+"/positions", "", nil, &p); code != 200 {
		t.Fatalf("positions: %d", code)
	}
	if p.Version != 4 || len(p.Positions) != 4 || p.Positions[0].View.Last != "" || p.Positions[2].View.Last != "g4" ||
		strings.Count(p.Positions[3].View.Stones, "w") != 2 || p.Positions[1].ToMove != "black" {
		t.Fatalf("positions: %+v", p)
	}

	res, err := http.Get(ts.URL + "/api/games/" + g.id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	hgf, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(res.Header.Get("Content-Disposition"), ".hgf") ||
		!strings.Contains(string(hgf), "RE[B+R];W[H3];B[G4];W[F3];B[resign])") ||
		!strings.Contains(string(hgf), "GC[Little Golem's layout: the first player (White on bretter) is PB") {
		t.Fatalf("havannah record (%s):\n%s", res.Header.Get("Content-Disposition"), hgf)
	}

	// The downloaded record imports again, with the same positions.
	var imp struct {
		Game, Winner, Reason string
		Options              game.Options
		Moves                []string
		Positions            []any
	}
	if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": string(hgf)}, &imp); code != 200 {
		t.Fatalf("import: %d", code)
	}
	if imp.Game != "havannah" || imp.Options["size"] != 8 || strings.Join(imp.Moves, " ") != "h3 g4 f3" ||
		imp.Winner != "white" || imp.Reason != "resign" || len(imp.Positions) != 4 {
		t.Fatalf("import: %+v", imp)
	}

	// A record that says only who won gets its reason from the rules.
	var ring struct{ Winner, Reason string }
	ts.call(t, "POST", "/api/records", "", map[string]string{"text": "(;FF[4]SZ[4]RE[B];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4])"}, &ring)
	if ring.Winner != "white" || ring.Reason != "bridge" {
		t.Fatalf("an imported bridge: %+v", ring)
	}

	d := ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	ts.call(t, "POST", "/api/games/"+d.id+"/moves", d.white, `{"ply":0,"move":"F5"}`, nil)
	res, _ = http.Get(ts.URL + "/api/games/" + d.id + "/record")
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(res.Header.Get("Content-Disposition"), ".txt") || !strings.Contains(string(text), "[Game \"dvonn\"]") ||
		!strings.Contains(string(text), "\n1. F5\n") {
		t.Fatalf("dvonn record:\n%s", text)
	}
	if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": string(text)}, &imp); code != 200 || imp.Game != "dvonn" || len(imp.Positions) != 2 {
		t.Fatalf("import of a dvonn record: %d %+v", code, imp)
	}
}

func TestImportErrors(t *testing.T) {
	ts := newTestServer(t)
	// Each refusal has, besides its English, the reasons to put into the
	// reader's language: where, then what.
	for _, tt := range []struct {
		text, want string
		reasons    []string
		ply        int // the move at fault, named alike in every format
	}{
		{"", "the record is empty", []string{"why.record.empty"}, 0},
		// A text is refused for what is wrong in the format it looks
		// like, or as no format at all: not for lacking the parentheses
		// of one it does not look like.
		{"hello", "this is not a record the site knows", []string{"why.record.unknown_format"}, 0},
		{"e5 d4 e6", "this is not a record the site knows", []string{"why.record.unknown_format"}, 0},
		{"1. C3\n2. D3", `no [Game "..."] line names the game`, []string{"why.record.no_game"}, 0},
		{"\n# from a file\n1.c3 d3", `no [Game "..."] line names the game`, []string{"why.record.no_game"}, 0},
		{"# from a file\n[Game \"dvonn\"]\n1. F5\n2. F5", "move 2 (F5): illegal move F5: F5 is occupied", []string{"why.import.move", "why.illegal_move", "why.dvonn.occupied"}, 2},
		{"(;FF[4]SZ[8];W[h3];B[h4)", "property B is not closed with ]", []string{"why.hgf.unclosed"}, 0},
		{"(;FF[4]SZ[8];W[h3] x)", "expected a property like SZ[8] at character 20", []string{"why.hgf.property"}, 0},
		{"[Game \"chess\"]\n1. e4", `unknown game "chess"`, []string{"why.record.unknown_game"}, 0},
		{"[Game \"havannah\"]\n[Options \"size=12\"]", "option size must be between 4 and 10", []string{"why.option.range"}, 0},
		{"[Game \"havannah\"]\n[Winner \"red\"]", `line 2: Winner must be "white"`, []string{"why.record.line", "why.record.winner"}, 0},
		{"[Game \"dvonn\"]\n1. F5\n2. F5", "move 2 (F5): illegal move F5: F5 is occupied", []string{"why.import.move", "why.illegal_move", "why.dvonn.occupied"}, 2},
		{"[Game \"fanorona\"]\n1. d2-e3", "move 1 (d2-e3): illegal move d2-e3: capture is compulsory", []string{"why.import.move", "why.illegal_move", "why.fanorona.must_capture"}, 1},
		{"[Game \"fanorona\"]\n1. d2-e9", `move 1 (d2-e9): malformed move "d2-e9": "e9" is not a point`, []string{"why.import.move", "why.malformed_move", "why.fanorona.not_a_point"}, 1},
		{"(;FF[4]SZ[8];W[H3];B[H3])", "move 2 B[H3]: illegal move h3: the cell is taken", []string{"why.record.move", "why.illegal_move", "why.havannah.taken"}, 2},
		{"(;FF[4]SZ[8]SZ[4];W[e5])", "SZ is given more than once", []string{"why.record.repeated"}, 0},
		{"[Game \"fanorona\"]\n1. d3-e3W\n2.", "line 3: move number 2. has no move: the record is cut off", []string{"why.record.truncated"}, 0},
		// A result must be the one the moves reach, or one the rules
		// cannot see in a game its moves have not ended.
		{"[Game \"havannah\"]\n[Options \"size=5\"]\n[Winner \"white\"]\n[Reason \"ring\"]\n1. a1", "the moves do not end the game, so it cannot have ended by ring", []string{"why.record.reason_not_ended"}, 0},
		{"[Game \"havannah\"]\n[Winner \"white\"]\n[Reason \"__proto__\"]\n1. a1", "cannot have ended by __proto__", []string{"why.record.reason_not_ended"}, 0},
		{"[Game \"dvonn\"]\n[Winner \"none\"]\n[Reason \"resign\"]\n1. F5", `a game ended by resign cannot have the winner "none"`, []string{"why.record.reason_winner"}, 0},
		{"[Game \"dvonn\"]\n[Winner \"black\"]\n[Reason \"aborted\"]\n1. F5", `a game ended by aborted cannot have the winner "black"`, []string{"why.record.reason_winner"}, 0},
		{"[Game \"fanorona\"]\n[Reason \"timeout\"]", "the record gives a reason, timeout, but no winner", []string{"why.record.reason_without_winner"}, 0},
		{"(;FF[4]SZ[4]RE[W];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4])", `the moves end the game with the winner "white" by bridge, not "black"`, []string{"why.record.winner_rules"}, 0},
		{"(;FF[4]SZ[4]RE[W+T];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4])", `the moves end the game with the winner "white" by bridge, not "black" by timeout`, []string{"why.record.result_rules"}, 0},
		{"(;FF[4]SZ[4];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4];B[resign])", `the moves end the game with the winner "white" by bridge, not "white" by resign`, []string{"why.record.result_rules"}, 0},
		{"[Game \"havannah\"]\n[Options \"size=4\"]\n[Winner \"white\"]\n[Reason \"ring\"]\n1. a1 d1 a2 d2 a3 d3 a4", `the moves end the game with the winner "white" by bridge, not "white" by ring`, []string{"why.record.result_rules"}, 0},
		{"(;FF[4]GM[chess]SZ[8];W[e5])", "GM[chess] names another game than Havannah", []string{"why.hgf.other_game"}, 0},
		{"[Game \"dvonn\"]\n[White \"a\"]\n[White \"b\"]", "line 3: White is given more than once", []string{"why.record.line", "why.record.repeated"}, 0},
		{"[Game \"havannah\"]\n[Options \"size=4 size=5\"]", "line 2: option size is given more than once", []string{"why.record.line", "why.record.option_repeated"}, 0},
	} {
		var e struct {
			Error, Code string
			Ply         int
			Reasons     []struct {
				Key  string
				Args []struct{ Name, Value, Key string }
			}
		}
		code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": tt.text}, &e)
		if code != http.StatusUnprocessableEntity || e.Code != "bad_record" || !strings.Contains(e.Error, tt.want) {
			t.Errorf("import %q: %d %+v, want %q", tt.text, code, e, tt.want)
		}
		if e.Ply != tt.ply {
			t.Errorf("import %q: ply %d, want %d", tt.text, e.Ply, tt.ply)
		}
		var keys []string
		for _, r := range e.Reasons {
			keys = append(keys, r.Key)
		}
		if !slices.Equal(keys, tt.reasons) {
			t.Errorf("import %q: reasons %v, want %v", tt.text, keys, tt.reasons)
		}
	}
	// A word in a reason names its own message.
	var e struct {
		Reasons []struct {
			Args []struct{ Name, Value, Key string }
		}
	}
	ts.call(t, "POST", "/api/records", "", map[string]string{"text": "[Game \"havannah\"]\n[Options \"size=12\"]"}, &e)
	if len(e.Reasons) != 1 || len(e.Reasons[0].Args) != 4 || e.Reasons[0].Args[0] != (struct{ Name, Value, Key string }{"option", "size", "option.size"}) {
		t.Errorf("the reasons of a bad option: %+v", e.Reasons)
	}
	big := `{"text":"` + strings.Repeat("x", maxRecord) + `"}`
	if code := ts.call(t, "POST", "/api/records", "", big, nil); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("an oversized record: %d", code)
	}
	if code := ts.call(t, "GET", "/api/games/zzzzzzzzzz/record", "", nil, nil); code != 404 {
		t.Fatalf("record of an unknown game: %d", code)
	}
}

// A move read in another spelling, such as DVONN's in lower case, is given
// back as the game writes it, as the site's own records have it.
func TestImportedMovesAsTheGameWritesThem(t *testing.T) {
	ts := newTestServer(t)
	for text, want := range map[string]string{
		"[Game \"dvonn\"]\n1. f5\n2. h5\n3. d3": "F5 H5 D3",
		"[Game \"dvonn\"]\nF5 h5":               "F5 H5",
		"(;FF[4]SZ[5];W[E5];B[d4])":             "e5 d4",
	} {
		var imp struct{ Moves []string }
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": text}, &imp); code != 200 || strings.Join(imp.Moves, " ") != want {
			t.Errorf("import %q: %d, moves %q, want %q", text, code, imp.Moves, want)
		}
	}
}

// A game or a record without moves has an empty list of them, not none.
func TestNoMovesIsAnEmptyList(t *testing.T) {
	ts := newTestServer(t)
	for _, text := range []string{"(;FF[4]SZ[8])", "[Game \"dvonn\"]"} {
		var imp map[string]json.RawMessage
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": text}, &imp); code != 200 || string(imp["moves"]) != "[]" {
			t.Errorf("import %q: %d, moves %s", text, code, imp["moves"])
		}
	}
	g := ts.newGame(t, `{"game":"fanorona","start":"me"}`)
	var p map[string]json.RawMessage
	if code := ts.call(t, "GET", "/api/games/"+g.id+"/positions", "", nil, &p); code != 200 || string(p["moves"]) != "[]" {
		t.Errorf("positions of a new game: %d, moves %s", code, p["moves"])
	}
}

// Every record the site writes reads back with the result the game had,
// for each game and each way a game ends.
func TestRecordsOfEveryEndingReadBack(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, engine := range testGames {
		for _, end := range []string{"moves", "resign", "timeout", "agreement", "aborted"} {
			g := ts.newGame(t, fmt.Sprintf(`{"game":%q,"options":%s,"clock":{"initial_s":15,"increment_s":0}}`,
				engine.Name, map[string]string{"havannah": `{"size":4}`}[engine.Name]+map[bool]string{true: "{}"}[engine.Name != "havannah"]))
			switch end {
			case "moves":
				ts.playRandomly(t, g, engine, rng, -1)
			case "resign":
				ts.playRandomly(t, g, engine, rng, 3)
				ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, nil)
			case "timeout":
				ts.playRandomly(t, g, engine, rng, 2)
				ft.advance(16 * time.Second)
			case "agreement":
				ts.playRandomly(t, g, engine, rng, 2)
				ts.offer(t, g.id, g.white, "draw")
				ts.answer(t, g.id, g.black, "draw", true)
			case "aborted":
				ts.playRandomly(t, g, engine, rng, 1)
				ts.offer(t, g.id, g.black, "abort")
			}
			s := ts.state(t, g.id, "")
			if s.Status != "over" || s.Result == nil || end != "moves" && s.Result.Reason != end {
				t.Fatalf("%s ended by %s: %s %+v", engine.Name, end, s.Status, s.Result)
			}
			res, err := http.Get(ts.URL + "/api/games/" + g.id + "/record")
			if err != nil {
				t.Fatal(err)
			}
			text, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if want := map[bool]string{true: "TM[15]", false: `[TimeControl "15"]`}[engine.Name == "havannah"]; !strings.Contains(string(text), want) {
				t.Errorf("%s ended by %s: the record does not say the clock, %s:\n%s", engine.Name, end, want, text)
			}
			var imp struct {
				Winner, Reason string
				Moves          []string
			}
			if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": string(text)}, &imp); code != 200 ||
				imp.Winner != s.Result.Winner || imp.Reason != s.Result.Reason || !slices.Equal(imp.Moves, s.Moves) {
				t.Errorf("%s ended by %s (%+v): read back %d %+v\n%s", engine.Name, end, *s.Result, code, imp, text)
			}
		}
	}
}

// A record says the clock a game was played with, in its own format's
// way, and nothing of a clock where there was none.
func TestRecordsSayTheClock(t *testing.T) {
	ts := newTestServer(t)
	for _, tt := range []struct{ game, clock, want, not string }{
		{"dvonn", `{"initial_s":180,"increment_s":2}`, `[TimeControl "180+2"]`, ""},
		{"fanorona", `{"days":3}`, `[TimeControl "1/259200"]`, ""},
		{"fanorona", `null`, "", "TimeControl"},
		{"havannah", `{"initial_s":600,"increment_s":5}`, "TM[600]OT[+5 s a move]", ""},
		{"havannah", `{"initial_s":600,"increment_s":0}`, "TM[600]", "OT["},
		{"havannah", `{"days":1}`, "OT[86400 s a move]", "TM["},
	} {
		g := ts.newGame(t, fmt.Sprintf(`{"game":%q,"clock":%s}`, tt.game, tt.clock))
		res, err := http.Get(ts.URL + "/api/games/" + g.id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		text, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(text), tt.want) || tt.not != "" && strings.Contains(string(text), tt.not) {
			t.Errorf("%s with clock %s: want %q and no %q in\n%s", tt.game, tt.clock, tt.want, tt.not, text)
		}
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": string(text)}, nil); code != http.StatusOK {
			t.Errorf("%s with clock %s: read back %d", tt.game, tt.clock, code)
		}
	}
}

// playRandomly plays n random moves in g, or until the game is over if n
// is negative.
func (ts *testServer) playRandomly(t *testing.T, g testGame, engine game.Game, rng *rand.Rand, n int) {
	t.Helper()
	for i := 0; n < 0 || i < n; i++ {
		s := ts.state(t, g.id, "")
		if s.Status == "over" {
			return
		}
		st, _, err := game.Replay(engine, s.Options, s.Moves)
		if err != nil {
			t.Fatal(err)
		}
		legal := st.Legal(nil)
		secret := map[string]string{"white": g.white, "black": g.black}[s.ToMove]
		move := st.FormatMove(legal[rng.IntN(len(legal))])
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": len(s.Moves), "move": move}, nil); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", len(s.Moves)+1, move, code)
		}
	}
}

// A game begun from given moves has a record that says so: its players
// played only the moves after them. The site reads the record back as the
// same game, given moves and all.
func TestRecordsSayWhichMovesWereGiven(t *testing.T) {
	ts := newTestServer(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, engine := range testGames {
		options := map[string]string{"havannah": `{"size":5}`}[engine.Name]
		if options == "" {
			options = "{}"
		}
		before := ts.newGame(t, fmt.Sprintf(`{"game":%q,"options":%s}`, engine.Name, options))
		ts.playRandomly(t, before, engine, rng, 4)
		given := ts.state(t, before.id, "").Moves
		moves, _ := json.Marshal(given)
		g := ts.newGame(t, fmt.Sprintf(`{"game":%q,"options":%s,"start":"me","moves":%s}`, engine.Name, options, moves))
		ts.call(t, "POST", "/api/games/"+g.id+"/name", g.white, map[string]string{"name": "Ada"}, nil)
		ts.call(t, "POST", "/api/games/"+g.id+"/name", g.black, map[string]string{"name": "Bo"}, nil)
		ts.playRandomly(t, g, engine, rng, 2)
		s := ts.state(t, g.id, "")
		if s.Given != len(given) {
			t.Fatalf("%s: %d moves given, the game says %d", engine.Name, len(given), s.Given)
		}
		res, err := http.Get(ts.URL + "/api/games/" + g.id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		text, _ := io.ReadAll(res.Body)
		res.Body.Close()
		mark := map[bool]string{true: fmt.Sprintf("GV[%d]", s.Given), false: fmt.Sprintf(`[Given "%d"]`, s.Given)}[engine.Name == "havannah"]
		words := fmt.Sprintf("The first %d moves were given, not played in this game", s.Given)
		if !strings.Contains(string(text), mark) || !strings.Contains(string(text), words) {
			t.Errorf("%s: the record does not say that %d moves were given (%s, %q):\n%s", engine.Name, s.Given, mark, words, text)
		}
		var imp struct {
			White, Black string
			Moves        []string
			Given        int
		}
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": string(text)}, &imp); code != 200 ||
			imp.White != "Ada" || imp.Black != "Bo" || !slices.Equal(imp.Moves, s.Moves) || imp.Given != s.Given {
			t.Errorf("%s: read back %d %+v, want the moves %v of which %d given\n%s", engine.Name, code, imp, s.Moves, s.Given, text)
		}
	}
}

// A record the site wrote names its computer player, which a reader of
// the record in another language is shown in their words: the answer
// says which seat was the computer's, at which level, and keeps the
// names as written. Any other name, however near, is a person's.
func TestImportedRecordKnowsTheComputer(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":3,"start":"friend"}`, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	res, err := http.Get(ts.URL + "/api/games/" + c.ID + "/record")
	if err != nil {
		t.Fatal(err)
	}
	written, _ := io.ReadAll(res.Body)
	res.Body.Close()

	type answer struct {
		White, Black string
		Computer     map[string]int
	}
	for text, want := range map[string]answer{
		string(written): {White: "bretter level 3", Black: "?", Computer: map[string]int{"white": 3}},
		"[Game \"dvonn\"]\n[White \"anna\"]\n[Black \"bretter level 8\"]":             {White: "anna", Black: "bretter level 8", Computer: map[string]int{"black": 8}},
		"[Game \"dvonn\"]\n[White \"bretter level 9\"]\n[Black \"bretter level 0\"]":  {White: "bretter level 9", Black: "bretter level 0"},
		"[Game \"dvonn\"]\n[White \"bretter level 03\"]\n[Black \"Bretter level 3\"]": {White: "bretter level 03", Black: "Bretter level 3"},
		"[Game \"dvonn\"]\n[White \"bretter level 3!\"]\n[Black \"bretter level\"]":   {White: "bretter level 3!", Black: "bretter level"},
	} {
		var got answer
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": text}, &got); code != 200 {
			t.Errorf("import %q: %d", text, code)
			continue
		}
		if got.White != want.White || got.Black != want.Black || fmt.Sprint(got.Computer) != fmt.Sprint(want.Computer) {
			t.Errorf("import %q: %+v, want %+v", text, got, want)
		}
	}
}
