package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
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

// BenchmarkPhoneFirstPaint opens a game page of Havannah (side 8, a few
// moves played) on a phone with a cold cache, a slow network and a slow
// processor, and reports when the board is first painted (the server
// draws it into the page), when the live board has taken over, and the
// bytes that came over the network.
//
//	go test ./internal/e2e/ -run '^$' -bench PhoneFirstPaint -benchtime 3x
func BenchmarkPhoneFirstPaint(b *testing.B) {
	srv := bt.StartServer(b, "")
	res, err := http.Post(srv.URL+"/api/games", "application/json",
		strings.NewReader(`{"game":"havannah","options":{"size":8},"moves":["e5","d4","e6","c3","f6"]}`))
	if err != nil {
		b.Fatal(err)
	}
	var c struct{ ID string }
	err = json.NewDecoder(res.Body).Decode(&c)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		b.Fatalf("create: %d %v", res.StatusCode, err)
	}
	var paint, live, bytes float64
	n := 0
	for b.Loop() {
		p := bt.NewProfile(b, bt.Phone)
		if err := chromedp.Do(p, chromedp.Func(slowPhone)); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := bt.Navigate(p, srv.URL+"/g/"+c.ID); err != nil {
			b.Fatal(err)
		}
		// The live board is a group of cells; the server's is a picture.
		for {
			role, err := bt.Eval[string](p, `document.querySelector("#board svg")?.getAttribute("role") ?? ""`)
			if err != nil {
				b.Fatal(err)
			}
			if role == "group" {
				break
			}
			if time.Since(start) > time.Minute {
				b.Fatal("the live board never came")
			}
			time.Sleep(20 * time.Millisecond)
		}
		m, err := bt.Eval[[]float64](p, `[
			performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
			performance.now(),
			[performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")].reduce((s, e) => s + (e.transferSize || 0), 0),
		]`)
		if err != nil {
			b.Fatal(err)
		}
		paint, live, bytes = paint+m[0], live+m[1], bytes+m[2]
		n++
	}
	b.ReportMetric(paint/float64(n), "ms-first-paint")
	b.ReportMetric(live/float64(n), "ms-live-board")
	b.ReportMetric(bytes/float64(n)/1000, "kB-transferred")
}
