package loadtest

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// histogram counts latencies in buckets less than 1% wide, so that many
// goroutines can record into it without a lock and without keeping every
// sample: microseconds below 256 exactly, above that 128 buckets per power
// of two.
type histogram struct {
	counts [histBuckets]atomic.Int64
	n      atomic.Int64
	max    atomic.Int64 // microseconds
}

const histBuckets = 256 + 56*128

func bucketOf(us int64) int {
	if us < 256 {
		return int(max(us, 0))
	}
	shift := bits.Len64(uint64(us)) - 8
	return 256 + (shift-1)*128 + int(us>>shift) - 128
}

// bucketMid is the middle of a bucket's range, in microseconds.
func bucketMid(i int) float64 {
	if i < 256 {
		return float64(i)
	}
	shift := (i-256)/128 + 1
	low := int64((i-256)%128+128) << shift
	return float64(low) + float64(int64(1)<<shift)/2
}

func (h *histogram) record(d time.Duration) {
	us := d.Microseconds()
	i := bucketOf(us)
	if i >= histBuckets {
		i = histBuckets - 1
	}
	h.counts[i].Add(1)
	h.n.Add(1)
	for {
		m := h.max.Load()
		if us <= m || h.max.CompareAndSwap(m, us) {
			return
		}
	}
}

// Latency sums up recorded latencies, in milliseconds.
type Latency struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

func (h *histogram) summary() Latency {
	l := Latency{Count: h.n.Load(), Max: float64(h.max.Load()) / 1000}
	if l.Count == 0 {
		return l
	}
	l.P50, l.P95, l.P99 = h.quantile(0.50, l.Count), h.quantile(0.95, l.Count), h.quantile(0.99, l.Count)
	return l
}

// quantile is the latency (ms) that q of the n samples do not exceed;
// never more than the largest sample.
func (h *histogram) quantile(q float64, n int64) float64 {
	rank := int64(q*float64(n) + 0.999999)
	rank = max(rank, 1)
	var seen int64
	for i := range h.counts {
		if seen += h.counts[i].Load(); seen >= rank {
			return min(bucketMid(i), float64(h.max.Load())) / 1000
		}
	}
	return float64(h.max.Load()) / 1000
}
