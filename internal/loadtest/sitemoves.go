package loadtest

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// moveMetric is the site's own timing of a player's move, from its
// arrival to its event handed to the players' pages.
const moveMetric = "bretter_move_seconds"

// SiteShare is the site's part of the time from a move to the opponent,
// as the site timed it over the run. Its histogram has buckets, not
// samples: a quantile is told as the upper bound of its bucket.
type SiteShare struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean_ms"`
	P50   float64 `json:"p50_at_most_ms"`
	P95   float64 `json:"p95_at_most_ms"`
	P99   float64 `json:"p99_at_most_ms"` // +Inf is told as -1
}

// moveTimes reads the site's histogram of moves from its /metrics.
func (r *run) moveTimes(ctx context.Context) (*dto.Histogram, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// From an address of its own, like every request of the run.
	ctx = context.WithValue(ctx, source{}, r.addrs.take())
	req, err := http.NewRequestWithContext(ctx, "GET", r.cfg.Target.String()+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("reading /metrics: %w", err)
	}
	f, ok := families[moveMetric]
	if !ok || len(f.GetMetric()) != 1 || f.GetMetric()[0].GetHistogram() == nil {
		return nil, fmt.Errorf("the site tells no %s", moveMetric)
	}
	return f.GetMetric()[0].GetHistogram(), nil
}

// siteShareSince reads the site's histogram again and sums up the moves
// timed since before (read with err), or says why it cannot.
func (r *run) siteShareSince(before *dto.Histogram, err error) (*SiteShare, string) {
	var after *dto.Histogram
	if err == nil {
		after, err = r.moveTimes(context.Background())
	}
	var s SiteShare
	if err == nil {
		s, err = siteShare(before, after)
	}
	if err != nil {
		return nil, err.Error()
	}
	return &s, ""
}

// siteShare sums up the moves timed between before and after.
func siteShare(before, after *dto.Histogram) (SiteShare, error) {
	b, a := before.GetBucket(), after.GetBucket()
	if len(a) != len(b) {
		return SiteShare{}, fmt.Errorf("the buckets of %s changed during the run", moveMetric)
	}
	s := SiteShare{Count: int64(after.GetSampleCount() - before.GetSampleCount())}
	if s.Count <= 0 {
		return s, nil
	}
	s.Mean = (after.GetSampleSum() - before.GetSampleSum()) / float64(s.Count) * 1000
	quantile := func(q float64) float64 {
		rank := uint64(math.Ceil(q * float64(s.Count)))
		for i := range a {
			if a[i].GetCumulativeCount()-b[i].GetCumulativeCount() >= rank && !math.IsInf(a[i].GetUpperBound(), 1) {
				return a[i].GetUpperBound() * 1000
			}
		}
		return -1 // beyond the last bound
	}
	s.P50, s.P95, s.P99 = quantile(0.50), quantile(0.95), quantile(0.99)
	return s, nil
}
