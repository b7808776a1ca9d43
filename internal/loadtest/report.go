package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "target      %s, %d %s games, %d watchers each, thinking %s\n", r.Target, r.Games, r.Game, r.Watchers, r.Think)
	if r.Computer > 0 {
		fmt.Fprintf(w, "beside      %d games against the computer at level %d\n", r.Computer, r.Level)
	}
	if r.PlayersNice != 0 {
		fmt.Fprintf(w, "players     at niceness %d\n", r.PlayersNice)
	}
	fmt.Fprintf(w, "set up      %.1fs; measured %.1fs; %d games finished\n", r.SetupSeconds, r.Seconds, r.GamesFinished)
	fmt.Fprintf(w, "moves       %d, %.1f/s\n", r.Moves, r.MovesPerSecond)
	fmt.Fprintf(w, "%-11s %9s %9s %9s %9s %9s\n", "latency", "count", "p50 ms", "p95 ms", "p99 ms", "max ms")
	type row struct {
		name string
		l    Latency
	}
	rows := []row{{"opponent", r.Opponent}}
	if r.Watchers > 0 {
		rows = append(rows, row{"watchers", r.WatchersLatency})
	}
	if r.Computer > 0 {
		rows = append(rows, row{"computer", r.ComputerLatency})
	}
	for _, l := range rows {
		fmt.Fprintf(w, "%-11s %9d %9.2f %9.2f %9.2f %9.2f\n", l.name, l.l.Count, l.l.P50, l.l.P95, l.l.P99, l.l.Max)
	}
	if s := r.SiteMove; s != nil {
		fmt.Fprintf(w, "site's part %d moves as the site timed them (%s): mean %.2f ms; p50 %s, p95 %s, p99 %s\n",
			s.Count, moveMetric, s.Mean, atMost(s.P50), atMost(s.P95), atMost(s.P99))
	} else if r.SiteMoveNote != "" {
		fmt.Fprintf(w, "site's part not measured: %s\n", r.SiteMoveNote)
	}
	fmt.Fprintf(w, "errors      %d\n", r.Errors)
	for _, e := range r.FirstErrors {
		fmt.Fprintf(w, "  %s\n", e)
	}
	if r.Server != nil {
		writeUsage(w, "server", r.Server)
	} else {
		fmt.Fprintf(w, "server      not measured: %s\n", r.ServerNote)
	}
	if r.Self != nil {
		writeUsage(w, "loadtest", r.Self)
	}
	if r.WatchersProcess != nil {
		writeUsage(w, "watchers", r.WatchersProcess)
	}
}

// atMost tells a quantile known only as its bucket's upper bound.
func atMost(ms float64) string {
	if ms < 0 {
		return "beyond the last bucket"
	}
	return fmt.Sprintf("≤ %.2f ms", ms)
}

func writeUsage(w io.Writer, name string, u *Usage) {
	fmt.Fprintf(w, "%-11s pid %d: CPU %.1fs (%.0f%% of a core), RSS %.0f MB (peak %.0f MB)\n", name, u.PID, u.CPUSeconds, u.CPUPercent, u.RSSMB, u.PeakRSSMB)
}

// WriteJSON prints the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.FirstErrors == nil {
		r.FirstErrors = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
