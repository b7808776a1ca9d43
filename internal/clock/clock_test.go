package clock

import (
	"slices"
	"testing"
	"time"
)

var t0 = time.UnixMilli(1_790_000_000_000)

// at is t0 plus seconds.
func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func moves(list ...any) []Move {
	var out []Move
	for i := 0; i < len(list); i += 2 {
		out = append(out, Move{Seat: list[i].(string), At: at(list[i+1].(float64))})
	}
	return out
}

func TestAt(t *testing.T) {
	live := Control{Initial: 5 * time.Minute, Increment: 3 * time.Second}
	days := Control{Days: 2}
	day := 24 * time.Hour
	for _, tt := range []struct {
		name    string
		c       Control
		moves   []Move
		toMove  string
		playing bool
		now     float64
		want    State
	}{
		{"no clock", Control{}, moves("white", 1.0, "black", 2.0), "white", true, 9, State{}},
		{"nobody has moved", live, nil, "white", true, 100, State{White: 5 * time.Minute, Black: 5 * time.Minute}},
		{"only White has moved", live, moves("white", 5.0), "black", true, 100, State{White: 5 * time.Minute, Black: 5 * time.Minute}},
		{"both first moves are free; White's runs from Black's", live, moves("white", 5.0, "black", 50.0), "white", true, 60,
			State{White: 5*time.Minute - 10*time.Second, Black: 5 * time.Minute, Running: "white", Deadline: at(350)}},
		{"each move costs its time and earns the increment", live, moves("white", 0.0, "black", 10.0, "white", 14.0, "black", 20.0), "white", true, 25,
			State{White: 5*time.Minute - 4*time.Second + 3*time.Second - 5*time.Second, Black: 5*time.Minute - 6*time.Second + 3*time.Second,
				Running: "white", Deadline: at(20 + 299)}},
		{"a forced pass costs nothing and earns nothing", live,
			slices.Concat(moves("white", 0.0, "black", 10.0, "white", 30.0), []Move{{Seat: "black", At: at(30), Forced: true}}, moves("white", 31.0)), "black", true, 31,
			State{White: 5*time.Minute - 20*time.Second + 3*time.Second - time.Second + 3*time.Second, Black: 5 * time.Minute,
				Running: "black", Deadline: at(31 + 300)}},
		{"over: no clock runs, time counts to the end", live, moves("white", 0.0, "black", 10.0, "white", 14.0), "black", false, 20,
			State{White: 5*time.Minute - time.Second, Black: 5*time.Minute - 6*time.Second}},
		{"over with the last move", live, moves("white", 0.0, "black", 10.0, "white", 14.0), "black", false, 14,
			State{White: 5*time.Minute - time.Second, Black: 5 * time.Minute}},
		{"past the flag the time is negative", live, moves("white", 0.0, "black", 10.0), "white", true, 400,
			State{White: -90 * time.Second, Black: 5 * time.Minute, Running: "white", Deadline: at(310)}},
		{"a move taken back: the time until then counts, and its increment goes back", live,
			append(moves("white", 0.0, "black", 10.0, "white", 14.0), Move{Seat: "black", At: at(17), Pause: true, Back: 1}), "white", true, 20,
			State{White: 5*time.Minute - 4*time.Second - 3*time.Second, Black: 5*time.Minute - 3*time.Second,
				Running: "white", Deadline: at(17 + 296)}},
		{"a move and the reply taken back: both increments go back, the time spent stays spent", live,
			append(moves("white", 0.0, "black", 10.0, "white", 14.0, "black", 20.0), Move{Seat: "white", At: at(25), Pause: true, Back: 2}), "white", true, 30,
			State{White: 5*time.Minute - 4*time.Second - 5*time.Second - 5*time.Second, Black: 5*time.Minute - 6*time.Second,
				Running: "white", Deadline: at(25 + 291)}},
		{"moves taken back before the clocks started earned nothing to give back", live,
			append(moves("white", 0.0, "black", 10.0), Move{Seat: "white", At: at(12), Pause: true, Back: 2}), "white", true, 15,
			State{White: 5*time.Minute - 5*time.Second, Black: 5 * time.Minute, Running: "white", Deadline: at(12 + 298)}},
		{"a forced pass taken back gives back nothing", live,
			slices.Concat(moves("white", 0.0, "black", 10.0, "white", 30.0), []Move{{Seat: "black", At: at(30), Forced: true}}, moves("white", 31.0),
				[]Move{{Seat: "black", At: at(33), Pause: true, Back: 4}}), "black", true, 35,
			State{White: 5*time.Minute - 21*time.Second, Black: 5*time.Minute - 4*time.Second, Running: "black", Deadline: at(33 + 298)}},
		{"moves taken back before an earlier takeback are not taken back again", live,
			append(moves("white", 0.0, "black", 10.0, "white", 14.0), Move{Seat: "black", At: at(17), Pause: true, Back: 1},
				Move{Seat: "white", At: at(20)}, Move{Seat: "black", At: at(22), Pause: true, Back: 3}), "white", true, 22,
			State{White: 5*time.Minute - 4*time.Second - 3*time.Second, Black: 5*time.Minute - 3*time.Second - 2*time.Second,
				Running: "white", Deadline: at(22 + 293)}},
		{"a takeback reaching past an earlier one gives back the moves before it too", live,
			slices.Concat(moves("white", 0.0, "black", 10.0, "white", 14.0, "black", 20.0, "white", 25.0),
				[]Move{{Seat: "black", At: at(27), Pause: true, Back: 1}}, moves("white", 30.0),
				[]Move{{Seat: "black", At: at(32), Pause: true, Back: 3}}), "white", true, 32,
			State{White: 5*time.Minute - 12*time.Second, Black: 5*time.Minute - 10*time.Second, Running: "white", Deadline: at(32 + 288)}},
		{"days per move: full time after each move", days, moves("white", 0.0, "black", 3600.0, "white", 90000.0), "black", true, 90000 + 7200,
			State{White: 2 * day, Black: 2*day - 2*time.Hour, Running: "black", Deadline: at(90000).Add(2 * day)}},
	} {
		got := At(tt.c, tt.moves, tt.toMove, tt.playing, at(tt.now), Downtime{})
		if got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// down is the union of outages given as pairs of seconds from t0.
func down(spans ...float64) Downtime {
	var outages []Outage
	for i := 0; i < len(spans); i += 2 {
		outages = append(outages, Outage{From: at(spans[i]), To: at(spans[i+1])})
	}
	return NewDowntime(outages)
}

// Time the site was down is charged to nobody, and moves the deadline on.
func TestAtLeavesOutDowntime(t *testing.T) {
	live := Control{Initial: 20 * time.Second}
	days := Control{Days: 1}
	day := 24 * time.Hour
	// White moves at 0, Black at 10: White's clock runs from 10.
	game := moves("white", 0.0, "black", 10.0)
	running := func(white time.Duration, deadline float64) State {
		return State{White: white, Black: 20 * time.Second, Running: "white", Deadline: at(deadline)}
	}
	for _, tt := range []struct {
		name    string
		c       Control
		moves   []Move
		playing bool
		now     float64
		down    Downtime
		want    State
	}{
		{"no outage", live, game, true, 25, down(), running(5*time.Second, 30)},
		{"an outage while White thinks is not charged", live, game, true, 25, down(12, 19), running(12*time.Second, 37)},
		{"an outage under way at now counts up to now", live, game, true, 25, down(22, 40), running(8*time.Second, 48)},
		{"overlapping outages count once", live, game, true, 25, down(12, 17, 14, 19, 13, 15), running(12*time.Second, 37)},
		{"outages that touch count once", live, game, true, 25, down(12, 15, 15, 19), running(12*time.Second, 37)},
		{"an outage before the game changes nothing", live, game, true, 25, down(-50, -10), running(5*time.Second, 30)},
		{"an outage across the clocks' start counts from it", live, game, true, 25, down(5, 12), running(7*time.Second, 32)},
		{"an outage after now leaves the time, but moves the deadline", live, game, true, 25, down(26, 28), running(5*time.Second, 32)},
		{"an empty outage changes nothing", live, game, true, 25, down(12, 12, 14, 13), running(5*time.Second, 30)},
		{"the deadline skips every outage", live, game, true, 25, down(12, 14, 20, 22, 40, 100), running(9*time.Second, 34)},
		{"the deadline at an outage's start stays there", live, game, true, 25, down(30, 40), running(5*time.Second, 30)},
		{"an outage after the end changes nothing", live, moves("white", 0.0, "black", 10.0, "white", 14.0), false, 20, down(21, 50),
			State{White: 16 * time.Second, Black: 14 * time.Second}},
		{"a move's time leaves the outage out", live, moves("white", 0.0, "black", 10.0, "white", 14.0), true, 14, down(11, 13),
			State{White: 18 * time.Second, Black: 20 * time.Second, Running: "black", Deadline: at(34)}},
		{"a move within an outage was made with the site up: the outage begins at it", live, moves("white", 0.0, "black", 10.0, "white", 14.0), true, 25, down(12, 20),
			State{White: 16 * time.Second, Black: 15 * time.Second, Running: "black", Deadline: at(40)}},
		{"a game lost on time just before an outage ends with no time left", live, game, false, 30, down(29.5, 60),
			State{White: 0, Black: 20 * time.Second}},
		{"days per move: the day is a day of the site up", days, game, true, 3600, down(100, 1900),
			State{White: day - 1790*time.Second, Black: day, Running: "white", Deadline: at(10 + 1800).Add(day)}},
	} {
		toMove := "white"
		if len(tt.moves)%2 == 1 {
			toMove = "black"
		}
		got := At(tt.c, tt.moves, toMove, tt.playing, at(tt.now), tt.down)
		if got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// The grace after an outage is charged to nobody, like the outage; but
// the site is up in it, so what a game stores then does not tell where
// the outage began.
func TestAtLeavesOutTheGrace(t *testing.T) {
	live := Control{Initial: 20 * time.Second}
	// outage is an outage from and to seconds from t0, with a grace of 3 s.
	outage := func(from, to float64) Outage { return Outage{From: at(from), To: at(to), Grace: 3 * time.Second} }
	game := moves("white", 0.0, "black", 10.0)
	for _, tt := range []struct {
		name    string
		moves   []Move
		playing bool
		now     float64
		down    []Outage
		want    State
	}{
		{"the grace is charged to nobody, and moves the deadline on", game, true, 25, []Outage{outage(12, 19)},
			State{White: 15 * time.Second, Black: 20 * time.Second, Running: "white", Deadline: at(40)}},
		{"a move in the grace is no sign that the outage began later", moves("white", 0.0, "black", 10.0, "white", 20.0), true, 25, []Outage{outage(12, 19)},
			State{White: 18 * time.Second, Black: 17 * time.Second, Running: "black", Deadline: at(42)}},
		{"nor is the end of a game in the grace", game, false, 21, []Outage{outage(12, 19)},
			State{White: 18 * time.Second, Black: 20 * time.Second}},
		{"an outage that begins in the grace of another joins it", game, true, 40, []Outage{outage(12, 19), outage(21, 30)},
			State{White: 11 * time.Second, Black: 20 * time.Second, Running: "white", Deadline: at(51)}},
		{"the same outage recorded twice ends with the later grace", game, true, 25,
			[]Outage{outage(12, 19), {From: at(12), To: at(18), Grace: 5 * time.Second}},
			State{White: 16 * time.Second, Black: 20 * time.Second, Running: "white", Deadline: at(41)}},
	} {
		toMove := "white"
		if len(tt.moves)%2 == 1 {
			toMove = "black"
		}
		got := At(live, tt.moves, toMove, tt.playing, at(tt.now), NewDowntime(tt.down))
		if got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []Control{{}, {Initial: time.Minute}, {Initial: 15 * time.Second, Increment: 180 * time.Second}, {Initial: 180 * time.Minute}, {Days: 14}} {
		if err := c.Check(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range []Control{{Initial: 14 * time.Second}, {Initial: 181 * time.Minute}, {Initial: time.Minute, Increment: 181 * time.Second},
		{Initial: time.Minute, Increment: -time.Second}, {Days: 4}, {Days: 3, Initial: time.Minute}, {Increment: 3 * time.Second}} {
		if err := c.Check(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// A refused clock says its limits in words, not in Go's "3h0m0s".
func TestCheckSaysTimesInWords(t *testing.T) {
	for _, tt := range []struct {
		c    Control
		want string
	}{
		{Control{Initial: 3 * time.Second}, "the initial time must be between 15 seconds and 3 hours, not 3 seconds"},
		{Control{Initial: 3*time.Hour + time.Second}, "the initial time must be between 15 seconds and 3 hours, not 3 hours 1 second"},
		{Control{Initial: time.Minute, Increment: 181 * time.Second}, "the increment must be between 0 and 3 minutes, not 3 minutes 1 second"},
		{Control{Initial: time.Minute, Increment: -time.Second}, "the increment must be between 0 and 3 minutes, not -1 second"},
		{Control{Days: 4}, "days per move must be 1, 2, 3, 5, 7 or 14, not 4"},
	} {
		if err := tt.c.Check(); err == nil || err.Error() != tt.want {
			t.Errorf("%+v: %v, want %q", tt.c, err, tt.want)
		}
	}
}
