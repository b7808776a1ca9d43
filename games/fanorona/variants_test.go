package fanorona

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The reference generator lists turns the slow, obvious way, from the rules
// of the corpus description, with a switch for the rule mistakes that
// perft-rule-variants.tsv gives counts for. Each switch must produce its
// mistake's counts, and the correct rules perft.tsv's: that shows the
// generator implements each rule the table names, and that each rule
// matters by the depths checked. The engine's turns are then compared with
// the generator's, string for string, in every position of the random
// games.
//
// One mistake is not reproduced: "start_point_reenterable" does not say
// how the program that counted it let the piece back onto its start (a
// plain forgetting of the start point gives 110 at depth 2, the table 80).
// For it, and for every mistake, the engine's own counts must differ from
// the mistake's at the first depth where the mistake differs from the
// correct rules: the engine does not carry that mistake's signature.

// refRules says which rule the generator gets wrong, if any.
type refRules struct {
	sameDirection bool // a chain may continue in the direction just moved
	revisit       bool // a chain may land on points it already visited
	mandatory     bool // only maximal chains are turns
	together      bool // a step that captures both ways takes both lines
	optional      bool // paikas are legal even when a capture exists
	firstSingle   bool // each side's first turn captures once at most
}

// refVariants maps the table's mistakes to the generator's switches; nil
// marks the mistake the generator does not reproduce.
var refVariants = map[string]*refRules{
	"no_same_direction_rule":           {sameDirection: true},
	"no_revisit_rule":                  {revisit: true},
	"start_point_reenterable":          nil,
	"continuation_mandatory":           {mandatory: true},
	"approach_and_withdrawal_together": {together: true},
	"capture_not_compulsory":           {optional: true},
	"first_turn_single_capture":        {firstSingle: true},
}

// refBoard holds 0 (empty), 1 (White) or 2 (Black) per point, index
// rank*9 + file from a1.
type refBoard [45]int8

type refPosition struct {
	board  refBoard
	toMove int8 // 1 or 2
	ply    int
}

func refStart() refPosition {
	var b refBoard
	for f := range 9 {
		b[f], b[9+f], b[27+f], b[36+f] = 1, 1, 2, 2
	}
	for f, c := range "BWBW.BWBW" {
		b[18+f] = map[rune]int8{'B': 2, 'W': 1, '.': 0}[c]
	}
	return refPosition{board: b, toMove: 1}
}

// refDirs lists each direction next to its opposite: d^1 is the way back.
var refDirs = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// refStep is the point next to p in direction d, if a line joins them:
// diagonal lines only pass through strong points.
func refStep(p, d int) (int, bool) {
	f, r := p%9, p/9
	if d >= 4 && (f+r)%2 != 0 {
		return 0, false
	}
	f, r = f+refDirs[d][0], r+refDirs[d][1]
	if f < 0 || f > 8 || r < 0 || r > 4 {
		return 0, false
	}
	return r*9 + f, true
}

func refOpposite(d int) int { return d ^ 1 }

func refName(p int) string { return string(rune('a'+p%9)) + strconv.Itoa(p/9+1) }

// refTake removes the unbroken line of enemy pieces that starts next to p
// in direction d, and reports whether it removed any.
func refTake(b *refBoard, p, d int, enemy int8) bool {
	took := false
	for q, ok := refStep(p, d); ok && b[q] == enemy; q, ok = refStep(q, d) {
		b[q] = 0
		took = true
	}
	return took
}

// refTurns calls emit with each turn of pos under rules: its text and the
// position after it.
func refTurns(pos refPosition, rules refRules, emit func(text string, next refPosition)) {
	own, enemy := pos.toMove, 3-pos.toMove
	after := func(b refBoard) refPosition { return refPosition{b, enemy, pos.ply + 1} }
	capture := false
	for p := range pos.board {
		if pos.board[p] == own && len(refCaptures(&pos.board, p, -1, enemy, rules)) > 0 {
			capture = true
		}
	}
	if !capture || rules.optional {
		for p := range pos.board {
			if pos.board[p] != own {
				continue
			}
			for d := range refDirs {
				if q, ok := refStep(p, d); ok && pos.board[q] == 0 {
					b := pos.board
					b[p], b[q] = 0, own
					emit(refName(p)+"-"+refName(q), after(b))
				}
			}
		}
	}
	if !capture {
		return
	}
	single := rules.firstSingle && pos.ply < 2
	var chain func(b refBoard, p, last int, visited uint64, text string) bool
	chain = func(b refBoard, p, last int, visited uint64, text string) bool {
		took := false
		for _, s := range refCaptures(&b, p, last, enemy, rules) {
			q, _ := refStep(p, s.dir)
			if !rules.revisit && visited&(1<<q) != 0 {
				continue
			}
			took = true
			nb := b
			nb[p], nb[q] = 0, own
			if s.kind != 'W' {
				refTake(&nb, q, s.dir, enemy)
			}
			if s.kind != 'A' {
				refTake(&nb, p, refOpposite(s.dir), enemy)
			}
			t := text + "-" + refName(q)
			if s.kind != 'B' {
				t += string(s.kind)
			}
			if !rules.mandatory {
				emit(t, after(nb))
			}
			more := !single && chain(nb, q, s.dir, visited|1<<q, t)
			if rules.mandatory && !more {
				emit(t, after(nb))
			}
		}
		return took
	}
	for p := range pos.board {
		if pos.board[p] != own {
			continue
		}
		chain(pos.board, p, -1, 1<<p, refName(p))
	}
}

// refCapture is a capturing step: its direction and kind, 'A' (approach),
// 'W' (withdrawal) or 'B' (both at once, under the together mistake).
type refCapture struct {
	dir  int
	kind byte
}

// refCaptures lists the capturing steps of the piece on p that may follow a
// step in direction last (-1 for the first step of a turn). The rule
// against landing where the piece has been is left to the caller.
func refCaptures(b *refBoard, p, last int, enemy int8, rules refRules) []refCapture {
	var out []refCapture
	for d := range refDirs {
		if d == last && !rules.sameDirection {
			continue
		}
		q, ok := refStep(p, d)
		if !ok || b[q] != 0 {
			continue
		}
		r, ok := refStep(q, d)
		approach := ok && b[r] == enemy
		r, ok = refStep(p, refOpposite(d))
		withdrawal := ok && b[r] == enemy
		switch {
		case approach && withdrawal && rules.together:
			out = append(out, refCapture{d, 'B'})
		default:
			if approach {
				out = append(out, refCapture{d, 'A'})
			}
			if withdrawal {
				out = append(out, refCapture{d, 'W'})
			}
		}
	}
	return out
}

func refPerft(pos refPosition, rules refRules, depth int) uint64 {
	var n uint64
	refTurns(pos, rules, func(_ string, next refPosition) {
		if depth == 1 {
			n++
		} else {
			n += refPerft(next, rules, depth-1)
		}
	})
	return n
}

// refMaxDepth bounds the depths checked: the counts at depth 4 take the
// generator a fraction of a second, and every mistake shows by depth 3.
const refMaxDepth = 4

func TestReferenceGeneratorRuleVariants(t *testing.T) {
	correct := map[int]uint64{}
	for _, row := range readTSV(t, "perft.tsv") {
		correct[int(atoi(t, row["depth"]))] = atoi(t, row["turns"])
	}
	for d := 1; d <= refMaxDepth+1; d++ {
		if got := refPerft(refStart(), refRules{}, d); got != correct[d] {
			t.Errorf("the correct rules: perft(%d) = %d, want %d", d, got, correct[d])
		}
	}
	seen := map[string]bool{}
	for _, row := range readTSV(t, "perft-rule-variants.tsv") {
		name := row["variant"]
		rules, ok := refVariants[name]
		if !ok {
			t.Fatalf("perft-rule-variants.tsv names a mistake the generator does not know: %s", name)
		}
		seen[name] = true
		shows := 0 // the first depth where the mistake changes the count
		for d := 1; d <= refMaxDepth; d++ {
			want := atoi(t, row["perft"+strconv.Itoa(d)])
			if shows == 0 && want != correct[d] {
				shows = d
				if got := New().Perft(d); got == want {
					t.Errorf("the engine's perft(%d) is %d, the count of the mistake %s", d, got, name)
				}
			}
			if rules == nil {
				continue
			}
			if got := refPerft(refStart(), *rules, d); got != want {
				t.Errorf("%s: perft(%d) = %d, the table says %d", name, d, got, want)
			}
		}
		if shows == 0 || shows > 3 {
			t.Errorf("%s first shows at depth %d, the description says by depth 3", name, shows)
		}
	}
	if len(seen) != len(refVariants) {
		t.Fatalf("the table lists %d of the %d mistakes", len(seen), len(refVariants))
	}
}

// The engine lists exactly the generator's turns, in the same words, in
// every position of the random games.
func TestTurnsAgreeWithReferenceGenerator(t *testing.T) {
	for _, row := range readTSV(t, "random-games.tsv") {
		s, ref := New(), refStart()
		for i, text := range strings.Fields(row["turns"]) {
			var want []string
			next := map[string]refPosition{}
			refTurns(ref, refRules{}, func(turn string, after refPosition) {
				want = append(want, turn)
				next[turn] = after
			})
			var got []string
			for _, m := range s.Legal(nil) {
				got = append(got, s.FormatMove(m))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("game %s, ply %d: the engine lists\n%v\nthe generator\n%v", row["game"], i+1, got, want)
			}
			m, err := s.ParseMove(text)
			if err == nil {
				err = s.Play(m)
			}
			if err != nil {
				t.Fatalf("game %s, ply %d: %v", row["game"], i+1, err)
			}
			ref = next[text]
		}
	}
}
