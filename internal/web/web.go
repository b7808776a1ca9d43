// Package web holds what the browser sees: page templates, message
// catalogues (German, English and Polish), the rules of each game in our own words,
// style sheets and ES modules. Everything is embedded in the binary; there
// is no build step.
package web

import (
	"bretter/internal/clock"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"bretter/game"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed rules/*.html
var rulesFS embed.FS

//go:embed static
var staticFS embed.FS

//go:embed i18n
var catalogFS embed.FS

// Site renders pages in every language it knows.
type Site struct {
	games    []game.Game
	catalogs map[string]Catalog
	pages    map[string]*template.Template // by page name
	rules    map[string]*template.Template // by game and language, "havannah.de"
	version  string                        // of the static files, for cache busting
	packed   compressed
	graph    map[string]module // scripts, what they import and name
	// scriptKeys tells, by game, which messages the scripts of its game
	// page may ask for: a player's page, and a watcher's.
	scriptKeys, watcherKeys map[string]func(key string) bool
	// pageKeys tells, by page, which messages page.js and the page's own
	// script may ask for; boardKeys, by game, which its board script may,
	// for the pictures of the game a page draws.
	pageKeys, boardKeys map[string]func(key string) bool
	// styleHashes are the CSP hashes of the inline styles: noScripts's
	// under "", and with it a game page's style sheets under its game.
	styleHashes map[string]string
	// cut holds the parts of the catalogue made for pages (see
	// Page.Catalog, Page.CatalogFor), by what each is for: working one
	// out walks the whole catalogue, too much to do at every page.
	cut sync.Map // string → Catalog
}

// New parses the templates and catalogues and checks that every game has
// its texts in every language.
func New(games []game.Game) (*Site, error) {
	s := &Site{games: games, pages: map[string]*template.Template{}, rules: map[string]*template.Template{}}
	var err error
	if s.catalogs, err = loadCatalogs(); err != nil {
		return nil, err
	}
	if s.version, err = staticVersion(); err != nil {
		return nil, err
	}
	if s.graph, err = moduleGraph(); err != nil {
		return nil, err
	}
	s.scriptKeys = map[string]func(string) bool{}
	s.watcherKeys = map[string]func(string) bool{}
	// page.js, every page's entry, starts each page's own script: a game
	// page runs game.js, never the others.
	var notHere []string
	for _, p := range s.graph["js/page.js"].lazy {
		if p != "js/game.js" {
			notHere = append(notHere, p)
		}
	}
	notWatched := slices.Concat(notHere, PlayersScripts)
	s.boardKeys = map[string]func(string) bool{}
	for _, g := range games {
		entries := []string{"js/page.js", "js/game.js", "js/boards/" + g.Name + ".js"}
		s.scriptKeys[g.Name] = messageKeys(s.graph, notHere, entries...)
		s.watcherKeys[g.Name] = messageKeys(s.graph, notWatched, entries...)
		s.boardKeys[g.Name] = messageKeys(s.graph, nil, "js/boards/"+g.Name+".js")
	}
	if s.styleHashes, err = s.hashStyles(); err != nil {
		return nil, err
	}
	funcs := template.FuncMap{
		"json":    toJSON,
		"diagram": s.diagram,
		"seq":     seq,
		// args passes several values to a template called with one.
		"args": func(v ...any) []any { return v },
		// The start form's clocks: live presets (minutes + seconds a
		// move) and days per move.
		"clockPresets": func() []clockPreset { return clockPresets },
		"clockDays":    func() []int { return clock.DaysChoices },
		"modules":      s.modules,
		"stylesheet":   stylesheet,
		"noScripts":    func() template.CSS { return noScripts },
	}
	layout, err := parsePage(template.New("layout.html").Funcs(funcs), "templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, _ := fs.Glob(templateFS, "templates/*.html")
	s.pageKeys = map[string]func(string) bool{}
	for _, name := range names {
		page := strings.TrimSuffix(path.Base(name), ".html")
		if page == "layout" {
			continue
		}
		t, err := parsePage(template.Must(layout.Clone()).New(path.Base(name)), name)
		if err != nil {
			return nil, err
		}
		s.pages[page] = t
		// The page's own script, which page.js starts, is named after
		// it (import.html, js/import.js); the others' it never runs.
		own := "js/" + page + ".js"
		s.pageKeys[page] = messageKeys(s.graph, slices.DeleteFunc(slices.Clone(s.graph["js/page.js"].lazy), func(p string) bool { return p == own }), "js/page.js", own)
	}
	for _, g := range games {
		for lang := range s.catalogs {
			name := g.Name + "." + lang
			t, err := template.New(name+".html").Funcs(funcs).ParseFS(rulesFS, "rules/"+name+".html")
			if err != nil {
				return nil, fmt.Errorf("rules of %s in %s: %w", g.Name, lang, err)
			}
			// Render once now, so that a broken diagram fails at start-up.
			if err := t.Execute(io.Discard, nil); err != nil {
				return nil, fmt.Errorf("rules of %s in %s: %w", g.Name, lang, err)
			}
			s.rules[name] = t
		}
		for lang, c := range s.catalogs {
			for _, key := range []string{"game." + g.Name + ".name", "game." + g.Name + ".line"} {
				if _, ok := c[key]; !ok {
					return nil, fmt.Errorf("catalogue %s lacks %s", lang, key)
				}
			}
		}
	}
	return s, nil
}

type clockPreset struct {
	Value   string // as the form sends it: initial+increment in seconds
	Control clock.Control
}

var clockPresets = []clockPreset{
	preset(1, 0), preset(3, 2), preset(5, 3), preset(10, 5), preset(15, 10), preset(30, 20),
}

func preset(minutes, increment int) clockPreset {
	return clockPreset{
		Value:   fmt.Sprintf("%d+%d", minutes*60, increment),
		Control: clock.Control{Initial: time.Duration(minutes) * time.Minute, Increment: time.Duration(increment) * time.Second},
	}
}

// seq lists the whole numbers from a to b.
func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

func toJSON(v any) (template.JS, error) {
	b, err := json.Marshal(v)
	return template.JS(b), err
}

// Static serves the style sheets, scripts and images under /static/.
// Their URLs carry the version, so they can be cached for good. A page
// loaded before the site was updated asks for its later scripts under its
// own version, which the site no longer has: they are missing, as any
// other file is.
func (s *Site) Static() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/"+s.version, http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, s.StaticPrefix())
		// Only files are served: no folder is listed, and an answer that
		// finds nothing is not kept for a year.
		if !ok || !isFile(sub, name) {
			s.missingFile(w, r)
			return
		}
		// Not "public": that lets a cache keep an answer to a request
		// with credentials, and these come without.
		w.Header().Set("Cache-Control", "max-age=31536000, immutable")
		if s.packed.serveText(w, r, sub, name) {
			return
		}
		files.ServeHTTP(w, r)
	})
}

// missingFile answers a file of the site that is not there. It is a
// line, not a page: the site's own pages ask for these addresses, as
// scripts, style sheets and images that nobody reads. A file of another
// version is one that a page made before the site was updated asks for:
// the line says so, and the page puts it on a button that reloads it
// (boards.js, updated). Its Content-Language is how the page tells it
// from a proxy's "not found" line.
func (s *Site) missingFile(w http.ResponseWriter, r *http.Request) {
	lang := s.Lang(r)
	key := "error.page_not_found"
	if s.otherVersion(r.URL.Path) {
		key = "error.updated"
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Language", lang)
	http.Error(w, s.T(lang, key), http.StatusNotFound)
}

// otherVersion reports whether p, a URL path, is under /static/ and a
// version of the static files that is not this one's: as many
// hexadecimal digits as staticVersion writes.
func (s *Site) otherVersion(p string) bool {
	rest, ok := strings.CutPrefix(p, "/static/")
	v, _, dir := strings.Cut(rest, "/")
	return ok && dir && len(v) == len(s.version) && v != s.version && strings.Trim(v, "0123456789abcdef") == ""
}

// Favicon serves the site's icon at /favicon.ico, where programs that
// read no page (feed readers, some messengers) look for it.
func (s *Site) Favicon() http.Handler {
	icon, _ := staticFS.ReadFile("static/favicon.svg")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Write(icon)
	})
}

//go:embed worker/sw.js
var serviceWorker []byte

// ServiceWorker serves the script that shows push notices. It lives at
// the site's root, so that it may act for every page, and is never cached
// for long, so that a new one takes over soon.
func (s *Site) ServiceWorker() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(serviceWorker)
	})
}

// StaticPrefix is where Static is mounted.
func (s *Site) StaticPrefix() string { return "/static/" + s.version + "/" }

// StaticFile reports whether Static serves a file at p, a URL path.
func (s *Site) StaticFile(p string) bool {
	name, ok := strings.CutPrefix(p, s.StaticPrefix())
	return ok && isFile(staticFS, "static/"+name)
}

// isFile reports whether name is a file of fsys: not a folder, nor
// nothing.
func isFile(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

func staticVersion() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFS.ReadFile(p)
		h.Write([]byte(p))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// Games lists the games in the order the site shows them.
func (s *Site) Games() []game.Game { return s.games }

// Page is what every template gets.
type Page struct {
	Lang   string
	Title  string
	Static string // prefix of static URLs
	Path   string // of this page, for the language switch
	Games  []game.Game
	Data   any
	site   *Site
	name   string // of the page's template
	// drawn gathers, as the page is made, the games whose pictures it
	// draws: their board scripts come, and with them their messages.
	drawn map[string]bool
}

// T translates key; args are name, value pairs for {name} placeholders.
func (p Page) T(key string, args ...any) string { return p.site.T(p.Lang, key, args...) }

// TimeControl says c in the page's language (see Site.TimeControl).
func (p Page) TimeControl(c clock.Control) string { return p.site.TimeControl(p.Lang, c) }

// Langs lists the languages, for the switch.
func (p Page) Langs() []string { return p.site.Langs() }

// Rules renders a game's rules in the page's language.
func (p Page) Rules(name string) (template.HTML, error) {
	t, ok := p.site.rules[name+"."+p.Lang]
	if !ok {
		return "", fmt.Errorf("no rules for %s in %s", name, p.Lang)
	}
	p.draws(name)
	var b bytes.Buffer
	err := t.Execute(&b, nil)
	return template.HTML(b.String()), err
}

// Catalog is the part of the catalogue that the page's scripts may use:
// page.js's, the page's own script's, and those of the board scripts of
// the games the page draws pictures of; not the other games' own
// messages, nor those only the server writes into pages. It comes at the
// end of the page, after the pictures. A game page has CatalogFor.
func (p Page) Catalog() Catalog {
	drawn := make([]string, 0, len(p.drawn))
	for g := range p.drawn {
		drawn = append(drawn, g)
	}
	sort.Strings(drawn)
	return p.site.cutOnce("page "+p.Lang+" "+p.name+" "+strings.Join(drawn, " "), func() Catalog {
		out := Catalog{}
		for key, m := range p.site.catalogs[p.Lang] {
			if g := p.site.gameOf(key); g != "" && !p.drawn[g] {
				continue
			}
			used := p.site.pageKeys[p.name] != nil && p.site.pageKeys[p.name](key)
			for _, g := range drawn {
				used = used || p.site.boardKeys[g](key)
			}
			if used {
				out[key] = m
			}
		}
		return out
	})
}

// cutOnce is the part of the catalogue named key, made by cut the first
// time it is asked for. Keys are few: a language, a page and the games
// it draws, or a game page's game and viewer.
func (s *Site) cutOnce(key string, cut func() Catalog) Catalog {
	if c, ok := s.cut.Load(key); ok {
		return c.(Catalog)
	}
	c, _ := s.cut.LoadOrStore(key, cut())
	return c.(Catalog)
}

// gameOf is the game whose own message key is, or "".
func (s *Site) gameOf(key string) string {
	for _, g := range s.games {
		if strings.HasPrefix(key, g.Name+".") || strings.HasPrefix(key, "game."+g.Name+".") || strings.HasPrefix(key, "why."+g.Name+".") {
			return g.Name
		}
	}
	return ""
}

// PlayersScripts are the scripts a game page loads only for a player
// (game.js decides): a watcher's page, the one most often opened cold
// from a shared link, carries none of their messages.
var PlayersScripts = []string{"js/actions.js", "js/chat.js", "js/notices.js"}

// CatalogFor is the part of the catalogue that the scripts of game's page
// may use, for a player (seated) or a watcher: not the other games' own
// messages, nor those only the server writes into pages.
func (p Page) CatalogFor(game string, seated bool) Catalog {
	return p.site.cutOnce(fmt.Sprintf("game %s %s %t", p.Lang, game, seated), func() Catalog {
		all := p.site.catalogs[p.Lang]
		used := p.site.watcherKeys[game]
		if seated {
			used = p.site.scriptKeys[game]
		}
		out := make(Catalog, len(all))
		for key, m := range all {
			if g := p.site.gameOf(key); used(key) && (g == "" || g == game) {
				out[key] = m
			}
		}
		return out
	})
}

// Render writes the named page.
func (s *Site) Render(w io.Writer, name, lang, title, urlPath string, data any) error {
	t, ok := s.pages[name]
	if !ok {
		return fmt.Errorf("no page %q", name)
	}
	p := Page{Lang: lang, Title: title, Static: s.StaticPrefix(), Path: urlPath, Games: s.games, Data: data, site: s, name: name, drawn: map[string]bool{}}
	if name == "import" {
		// The import page shows a record of whichever game it is.
		for _, g := range s.games {
			p.drawn[g.Name] = true
		}
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", p); err != nil {
		return err
	}
	_, err := b.WriteTo(w)
	return err
}

// Langs lists the languages of the catalogues, sorted.
func (s *Site) Langs() []string {
	var out []string
	for lang := range s.catalogs {
		out = append(out, lang)
	}
	sort.Strings(out)
	return out
}

// stylesheet is the text of a style sheet under static/css, for a page
// that carries its styles itself.
func stylesheet(name string) (template.CSS, error) {
	b, err := staticFS.ReadFile("static/css/" + name + ".css")
	return template.CSS(compactStyle(string(b))), err
}

// parsePage parses the page template in file into t, compacted.
func parsePage(t *template.Template, file string) (*template.Template, error) {
	b, err := templateFS.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return t.Parse(compactPage(string(b)))
}

// compactPage is a page template without its indentation and blank lines,
// which every page would carry: a game page's first visit on a phone has
// no bytes to spare. A line break stays, as the space it is between two
// words or elements. Our templates have no <pre>, and no text area with
// text in it.
func compactPage(src string) string {
	var b strings.Builder
	for line := range strings.Lines(src) {
		if line = strings.TrimLeft(line, " \t"); strings.TrimSpace(line) != "" {
			b.WriteString(line)
		}
	}
	return b.String()
}

// noScripts is the style of a page without scripts (a game page, the
// import page): what only scripts make work or true is put away, so that
// nothing is offered that would do nothing. That is whatever is marked
// with the class js (a game page's "Loading the game…", its replay and
// its board's tools, the settings, a player's boxes for a move, a chat
// line and a name, the import page's form), and the copy buttons; a link
// to copy stays in its box, to be copied by hand.
const noScripts = ".js,[data-copy]{display:none}"

// StyleHashes lists, for a Content-Security-Policy's style-src, the hashes
// of the styles a page carries inline: noScripts, and the style sheets of
// a page of game (none for ""), which brings the site's and its board's
// in itself, to save a phone on a slow network a round trip before the
// board shows. Only its own: every answer carries the policy, and the
// other boards' hashes weighed a hundred bytes there.
func (s *Site) StyleHashes(game string) string { return s.styleHashes[game] }

func (s *Site) hashStyles() (map[string]string, error) {
	hash := func(style string) string {
		sum := sha256.Sum256([]byte(style))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	site, err := stylesheet("site")
	if err != nil {
		return nil, err
	}
	none := hash(noScripts)
	out := map[string]string{"": none}
	for _, g := range s.games {
		board, err := stylesheet(g.Name)
		if err != nil {
			return nil, err
		}
		out[g.Name] = none + " " + hash(string(site)+string(board))
	}
	return out, nil
}
