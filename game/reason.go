package game

import (
	"fmt"
	"strings"
)

// A Reason says why the rules or a record's format refuse something, in a
// form a site can put into its reader's language: its catalogues hold,
// under Key ("why.…"), a message with the {name} placeholders of Text,
// which is the English wording. Args fill the placeholders: with what
// needs no translating, such as a cell's name, a number or a move, or
// with a Word.
type Reason struct {
	Key  string
	Text string
	Args []Arg
}

// An Arg is a placeholder's value: Value in English, and when it is a
// word to translate, the key of its message.
type Arg struct{ Name, Value, Key string }

// A Word is a placeholder's value that is translated too, such as a
// direction: Key names its message, Text is its English.
type Word struct{ Key, Text string }

// Because makes a Reason; args are pairs of a placeholder's name and its
// value, a Word or anything fmt.Sprint prints.
func Because(key, text string, args ...any) Reason {
	r := Reason{Key: key, Text: text}
	for i := 0; i+1 < len(args); i += 2 {
		a := Arg{Name: fmt.Sprint(args[i])}
		if w, ok := args[i+1].(Word); ok {
			a.Value, a.Key = w.Text, w.Key
		} else {
			a.Value = fmt.Sprint(args[i+1])
		}
		r.Args = append(r.Args, a)
	}
	return r
}

// String is the reason in English.
func (r Reason) String() string {
	s := r.Text
	for _, a := range r.Args {
		s = strings.ReplaceAll(s, "{"+a.Name+"}", a.Value)
	}
	return s
}

// A Refusal is an error of one of the kinds ErrIllegalMove, ErrNotation,
// ErrGameOver and ErrRecord, or of none (Err nil), with its reason: what
// was refused (Subject, "" when the reason says it), why, and what it came
// from, such as a move's refusal behind a record's.
type Refusal struct {
	Err     error
	Subject string
	Reason  Reason
	Cause   error
}

func (r *Refusal) Error() string {
	var b strings.Builder
	if r.Err != nil {
		b.WriteString(r.Err.Error())
		if r.Subject != "" {
			b.WriteString(" " + r.Subject)
		}
		b.WriteString(": ")
	}
	b.WriteString(r.Reason.String())
	if r.Cause != nil {
		b.WriteString(": " + r.Cause.Error())
	}
	return b.String()
}

// Unwrap gives both the kind and the cause to errors.Is and errors.As.
func (r *Refusal) Unwrap() []error {
	var out []error
	for _, err := range []error{r.Err, r.Cause} {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// Refuse is the error of a reason alone, of no kind above.
func Refuse(why Reason) error { return &Refusal{Reason: why} }

// BadRecord is the error for a record that cannot be read (ErrRecord), and
// why; cause, when not nil, is the refusal behind it, such as a move's.
func BadRecord(why Reason, cause error) error {
	return &Refusal{Err: ErrRecord, Reason: why, Cause: cause}
}

// Reasons lists the reasons of the refusal err, from the outermost to
// the one that started it, each after its kind where the kind is worth
// saying ("illegal move d4", then "the cell is taken"). It reports whether
// err is a refusal whose causes are all refusals, so that the list says
// all that err says.
func Reasons(err error) ([]Reason, bool) {
	var out []Reason
	for err != nil {
		r, ok := err.(*Refusal)
		if !ok {
			return out, false
		}
		switch {
		case r.Err == ErrIllegalMove:
			out = append(out, Because("why.illegal_move", "illegal move {move}", "move", r.Subject))
		case r.Err == ErrNotation:
			out = append(out, Because("why.malformed_move", "malformed move {text}", "text", r.Subject))
		case r.Err == ErrGameOver:
			out = append(out, Because("why.game_over", "game is over"))
		}
		out = append(out, r.Reason)
		err = r.Cause
	}
	return out, len(out) > 0
}
