package loadtest

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
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
	h.atLeast(us)
}

// atLeast raises the largest sample to us.
func (h *histogram) atLeast(us int64) {
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

// text writes h as one line's worth of words: its count, its largest
// sample in microseconds, and bucket:count for each bucket not empty.
// Samples may be recorded meanwhile, so the count written is that of the
// buckets as they were read, not h.n read before or after them.
func (h *histogram) text() string {
	var buckets strings.Builder
	var n int64
	for i := range h.counts {
		if c := h.counts[i].Load(); c > 0 {
			fmt.Fprintf(&buckets, " %d:%d", i, c)
			n += c
		}
	}
	return fmt.Sprintf("%d %d%s", n, h.max.Load(), buckets.String())
}

// addText adds to h the samples of another histogram, written by text.
// Nothing is added unless all of it reads.
func (h *histogram) addText(text string) error {
	words := strings.Fields(text)
	if len(words) < 2 {
		return fmt.Errorf("histogram %q: want a count and a largest sample", text)
	}
	n, err1 := strconv.ParseInt(words[0], 10, 64)
	most, err2 := strconv.ParseInt(words[1], 10, 64)
	if err1 != nil || err2 != nil || n < 0 {
		return fmt.Errorf("histogram %q: bad count or largest sample", text)
	}
	type bucket struct{ i, c int64 }
	buckets := make([]bucket, 0, len(words)-2)
	var sum int64
	for _, w := range words[2:] {
		i, c, ok := strings.Cut(w, ":")
		bi, err1 := strconv.ParseInt(i, 10, 64)
		bc, err2 := strconv.ParseInt(c, 10, 64)
		if !ok || err1 != nil || err2 != nil || bi < 0 || bi >= histBuckets || bc <= 0 {
			return fmt.Errorf("histogram %q: bad bucket %q", text, w)
		}
		buckets = append(buckets, bucket{bi, bc})
		sum += bc
	}
	if sum != n {
		return fmt.Errorf("histogram %q: its buckets hold %d samples, not %d", text, sum, n)
	}
	for _, b := range buckets {
		h.counts[b.i].Add(b.c)
	}
	h.n.Add(n)
	h.atLeast(most)
	return nil
}
