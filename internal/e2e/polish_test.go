package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	bt "bretter/internal/browsertest"
)

// acceptLanguage makes the browser ask for languages as a Polish browser
// does.
func acceptLanguage(t *testing.T, ctx context.Context, header string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": header}})
		return err
	}))
	must(t, err)
}

// A Polish browser gets the Havannah rules in Polish, with the diagrams,
// and the switch offers DE · EN · PL.
func TestPolishHavannahRules(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	acceptLanguage(t, p, "pl-PL,pl;q=0.9,en;q=0.5")
	must(t, bt.Navigate(p, srv.URL+"/havannah"))
	must(t, bt.WaitText(p, "h1", "Havannah"))
	must(t, bt.WaitText(p, ".rules", "Jak wygrać"))
	for _, word := range []string{"Pierścień", "Most", "Rozwidlenie", "Zasada zamiany", "3n(n−1)+1"} {
		must(t, bt.WaitText(p, ".rules", word))
	}
	lang, err := bt.Eval[string](p, `document.documentElement.lang`)
	must(t, err)
	if lang != "pl" {
		t.Fatalf("html lang %q", lang)
	}
	waitFor(t, p, `document.querySelectorAll('.rules figure svg').length`, 4, "the drawn diagrams")
	switcher, err := bt.Eval[string](p, `document.querySelector('.langs').innerText.replace(/\s+/g, '')`)
	must(t, err)
	if switcher != "DE·EN·PL" {
		t.Fatalf("the language switch reads %q", switcher)
	}
	// The start form counts days in Polish, chosen on the server.
	for value, want := range map[string]string{"d1": "1 dzień na ruch", "d2": "2 dni na ruch", "d5": "5 dni na ruch", "d14": "14 dni na ruch"} {
		got, err := bt.Eval[string](p, fmt.Sprintf(`document.querySelector('option[value=%q]').textContent`, value))
		must(t, err)
		if got != want {
			t.Errorf("clock option %s reads %q, want %q", value, got, want)
		}
	}
	bt.Screenshot(t, p, "polish-havannah-rules")
	// The switch still wins over the browser's wish, and stays.
	must(t, bt.Click(p, `.langs a[hreflang="en"]`))
	must(t, bt.WaitText(p, ".rules", "How to win"))
	must(t, bt.Navigate(p, srv.URL+"/"))
	must(t, bt.WaitText(p, "h1", "All boards"))
}

// Two friends start a DVONN game in Polish: one by the browser's
// language, one by the switch, remembered in a cookie. The pages speak
// Polish, and the scripts choose Polish plural forms by the CLDR rules.
func TestPolishDVONNGame(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	acceptLanguage(t, alice, "pl")
	newGame(t, alice, srv, "dvonn", nil, "me")
	must(t, bt.Navigate(bob, srv.URL+"/?lang=pl"))
	must(t, bt.WaitText(bob, "h1", "Wszystkie plansze"))
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Ruch znajomego (Białe).")
	waitStatus(t, alice, "Twój ruch (Białe).")
	must(t, bt.WaitText(alice, "#summary", "Do rozstawienia: DVONN 3, białe 23, czarne 23."))

	pages := []context.Context{alice, bob}
	for i, space := range []string{"C3", "F3", "I3", "E4"} {
		clickCell(t, pages[i%2], space)
		waitMoves(t, alice, i+1)
		waitMoves(t, bob, i+1)
	}
	must(t, bt.WaitText(alice, "#announce", "Czarne stawiają pionek na E4."))
	for _, page := range pages {
		must(t, bt.WaitText(page, "#summary", "Do rozstawienia: białe 23, czarne 22."))
		waitStatus(t, page, "(Białe)")
	}
	for space, want := range map[string]string{"C3": "C3, pionek DVONN", "E4": "E4, czarny pionek", "D4": "D4, puste"} {
		got, err := bt.Eval[string](bob, fmt.Sprintf(`document.querySelector('#board [data-cell=%q]').getAttribute('aria-label')`, space))
		must(t, err)
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s is labelled %q, want %q", space, got, want)
		}
	}
	bt.Screenshot(t, bob, "polish-dvonn-game")

	// Every counted message, in the page's own t(), for the numbers that
	// tell the Polish forms apart.
	bad, err := bt.Eval[[]string](alice, `(async () => {
		const src = document.querySelector('script[src$="/page.js"]').src;
		const { t } = await import(src.replace(/page\.js$/, 'i18n.js'));
		const catalogue = JSON.parse(document.getElementById('catalog').textContent);
		const want = { 0: 'many', 1: 'one', 2: 'few', 5: 'many', 12: 'many', 22: 'few', 25: 'many', 101: 'many' };
		const bad = [];
		let counted = 0;
		for (const [key, m] of Object.entries(catalogue)) {
			if (typeof m !== 'object') continue;
			counted++;
			for (const [n, form] of Object.entries(want)) {
				const got = t(key, { [m.plural]: Number(n) });
				const expect = m[form].replaceAll('{' + m.plural + '}', n);
				if (got !== expect) bad.push(key + ' ' + n + ': ' + got + ' (want ' + expect + ')');
			}
		}
		if (counted < 5) bad.push('only ' + counted + ' counted messages');
		return bad;
	})()`)
	must(t, err)
	if len(bad) > 0 {
		t.Fatalf("plural forms in the browser:\n%s", strings.Join(bad, "\n"))
	}
	cut, err := bt.Eval[string](alice, `import(document.querySelector('script[src$="/page.js"]').src.replace(/page\.js$/, 'i18n.js')).then(({ t }) => [1, 3, 6, 22].map((n) => t('dvonn.announce.cut', { count: n })).join(' '))`)
	must(t, err)
	if want := "1 pionek schodzi z planszy. 3 pionki schodzą z planszy. 6 pionków schodzi z planszy. 22 pionki schodzą z planszy."; cut != want {
		t.Fatalf("cut-offs read %q, want %q", cut, want)
	}
}

// A name the server refuses (a tab pasted into it) is refused in the
// page's language, reasons and all, not in the server's English.
func TestRefusedNameInPolish(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/havannah?lang=pl"))
	must(t, bt.Click(p, `form.new-game input[name=opponent][value=computer]`))
	must(t, bt.Click(p, `form.new-game button[type=submit]`))
	// The players' controls are there once their script is.
	waitFor(t, p, `document.querySelector("#actions button.resign") !== null`, true, "the players' controls")
	setValue(t, p, "#name-input", "Ada\tLovelace")
	_, err := bt.Eval[bool](p, `document.getElementById("name-form").requestSubmit(), true`)
	must(t, err)
	must(t, bt.WaitText(p, "#notice", "Nie przyjęto: imię nie może zawierać znaków sterujących ani podziałów wiersza"))
}
