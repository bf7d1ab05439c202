package service_test

import (
	"testing"
	"time"
)

func TestPercentileIsNearestRank(t *testing.T) {
	ms := func(n int) []time.Duration {
		d := make([]time.Duration, n)
		for i := range d {
			d[i] = time.Duration(i+1) * time.Millisecond
		}
		return d
	}
	for _, c := range []struct {
		samples, p int
		want       time.Duration
	}{
		{1, 95, 1 * time.Millisecond},
		{20, 95, 19 * time.Millisecond}, // not the slowest of 20
		{100, 95, 95 * time.Millisecond},
		{101, 95, 96 * time.Millisecond},
		{100, 50, 50 * time.Millisecond},
	} {
		if got := percentile(ms(c.samples), c.p); got != c.want {
			t.Errorf("p%d of %d samples = %v, want %v", c.p, c.samples, got, c.want)
		}
	}
}
