package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	bt "bretter/internal/browsertest"
)

// slowPhone makes the profile's network slow (400 ms latency, 50 kB/s
// each way) and its processor four times slower.
func slowPhone(ctx context.Context, tg *chromedp.Target) error {
	if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: 400, DownloadThroughput: 50_000, UploadThroughput: 50_000}},
	}); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4})
	return err
}

// BenchmarkPhoneFirstPaint opens a game page of each board (Havannah side
// 8 with a few moves played, DVONN and Fanorona from the start) on a phone
// with a cold cache, a slow network and a slow processor, and reports when
// the board is first painted (the server draws it into the page), when the
// live board has taken over, and the bytes that came over the network.
//
//	go test ./internal/e2e/ -run '^$' -bench PhoneFirstPaint -benchtime 3x
func BenchmarkPhoneFirstPaint(b *testing.B) {
	srv := bt.StartServer(b, "")
	for _, board := range []struct{ name, create string }{
		{"havannah", `{"game":"havannah","options":{"size":8},"moves":["e5","d4","e6","c3","f6"]}`},
		{"dvonn", `{"game":"dvonn"}`},
		{"fanorona", `{"game":"fanorona"}`},
	} {
		b.Run(board.name, func(b *testing.B) {
			id := createGame(b, srv.URL, board.create)
			var paint, live, bytes, bodies, wire float64
			n := 0
			for b.Loop() {
				p := bt.NewProfile(b, bt.Phone)
				if err := chromedp.Do(p, chromedp.Func(slowPhone)); err != nil {
					b.Fatal(err)
				}
				received := receivedBytes(b, p)
				start := time.Now()
				if err := bt.Navigate(p, srv.URL+"/g/"+id); err != nil {
					b.Fatal(err)
				}
				waitLiveBoard(b, p, start)
				m, err := bt.Eval[[]float64](p, `[
					performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
					performance.now(),
					`+transferredJS+`,
					`+bodiesJS+`,
				]`)
				if err != nil {
					b.Fatal(err)
				}
				paint, live, bytes, bodies, wire = paint+m[0], live+m[1], bytes+m[2], bodies+m[3], wire+float64(received())
				n++
			}
			b.ReportMetric(paint/float64(n), "ms-first-paint")
			b.ReportMetric(live/float64(n), "ms-live-board")
			b.ReportMetric(bytes/float64(n)/1000, "kB-transferred")
			b.ReportMetric(bodies/float64(n)/1000, "kB-compressed")
			b.ReportMetric(wire/float64(n)/1000, "kB-wire")
		})
	}
}

// receivedBytes counts what the profile's pages receive over the network
// from now on, headers included, as Chromium's network stack counts it
// (the page's own count, transferredJS, puts 300 bytes for any headers).
func receivedBytes(tb testing.TB, p context.Context) func() int64 {
	tb.Helper()
	var mu sync.Mutex
	var n int64
	err := chromedp.Listen(p, func(ev any) {
		if e, ok := ev.(*network.EventLoadingFinished); ok {
			mu.Lock()
			n += int64(e.EncodedDataLength)
			mu.Unlock()
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	return func() int64 {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// transferredJS sums, in a page, the bytes that came over the network for
// the page and everything it loaded.
const transferredJS = `[performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")].reduce((s, e) => s + (e.transferSize || 0), 0)`

// bodiesJS sums, in a page, the bodies of the page and everything it
// loaded as they came, compressed: the weight without any headers.
const bodiesJS = `[performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")].reduce((s, e) => s + (e.encodedBodySize || 0), 0)`

// createGame starts a game through the API and gives its id.
func createGame(tb testing.TB, base, body string) string {
	tb.Helper()
	res, err := http.Post(base+"/api/games", "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	var c struct{ ID string }
	err = json.NewDecoder(res.Body).Decode(&c)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		tb.Fatalf("create: %d %v", res.StatusCode, err)
	}
	return c.ID
}

// waitLiveBoard waits until the live board, a group of cells (a toolbar
// once its arrow keys work), has taken the place of the server's, a
// picture.
func waitLiveBoard(tb testing.TB, p context.Context, start time.Time) {
	tb.Helper()
	for {
		role, err := bt.Eval[string](p, `document.querySelector("#board svg")?.getAttribute("role") ?? ""`)
		if err != nil {
			tb.Fatal(err)
		}
		if role == "group" || role == "toolbar" {
			return
		}
		if time.Since(start) > time.Minute {
			tb.Fatal("the live board never came")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
