package jsonscan

import (
	"errors"
	"strings"
	"testing"
)

func TestEachMember(t *testing.T) {
	var got []string
	err := EachMember([]byte(` { "a" : 1, "b\u0022":{"x":[1,"]"]}, "c":"s,}" , "d":null } `), func(key, value []byte) error {
		got = append(got, string(key)+"="+string(value))
		return nil
	})
	want := `a=1 b"={"x":[1,"]"]} c="s,}" d=null`
	if err != nil || strings.Join(got, " ") != want {
		t.Fatalf("got %q, %v; want %q", strings.Join(got, " "), err, want)
	}
	if err := EachMember([]byte(`{}`), func(_, _ []byte) error { t.Fatal("a member of {}"); return nil }); err != nil {
		t.Fatalf("{}: %v", err)
	}
}

func TestEachMemberStops(t *testing.T) {
	n := 0
	err := EachMember([]byte(`{"a":1,"b":2,"c":3}`), func(key, _ []byte) error {
		if n++; string(key) == "b" {
			return ErrStop
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Fatalf("stopped after %d members: %v", n, err)
	}
	mine := errors.New("mine")
	err = EachMember([]byte(`{"a":1}`), func(_, _ []byte) error { return mine })
	if !errors.Is(err, mine) || !strings.HasPrefix(err.Error(), "a: ") {
		t.Fatalf("f's error: %v", err)
	}
}

func TestEachMemberRefusesBrokenObjects(t *testing.T) {
	for _, data := range []string{
		``, `[]`, `"a"`, `{`, `{"a"}`, `{"a":}`, `{"a":1`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`,
		`{"a":"x}`, `{"a:1}`, `{"a":{"b":1}`, `{a:1}`, `{"a":1}x`, `{"a":1}{}`,
	} {
		if err := EachMember([]byte(data), func(_, _ []byte) error { return nil }); err == nil {
			t.Errorf("%q: no error", data)
		}
	}
}
