package service

import (
	"slices"
	"testing"
)

func TestSplitRemoval(t *testing.T) {
	repeat := func(cost, n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = cost
		}
		return out
	}
	tests := []struct {
		name      string
		costs     []int
		final     int
		want      []removalChunk
		wantTotal int // memberships covered
	}{
		{"only the user", nil, 23, []removalChunk{{0, 0}}, 0},
		{"one membership", []int{7}, 0, []removalChunk{{0, 1}}, 1},
		{"all in one", repeat(7, 10), 23, []removalChunk{{0, 10}}, 10},
		{"24 memberships of two SPs and the user", repeat(7, 24), 23, []removalChunk{{0, 14}, {14, 24}}, 24},
		{"no user", repeat(7, 30), 0, []removalChunk{{0, 14}, {14, 16}, {16, 30}}, 30},
		{"the user alone in the last", []int{60, 60}, 50, []removalChunk{{0, 1}, {1, 2}, {2, 2}}, 2},
		{"the user too large to share", []int{60}, 90, []removalChunk{{0, 1}, {1, 1}}, 1},
		{"mixed costs", []int{5, 94, 5, 5, 89}, 10, []removalChunk{{0, 2}, {2, 4}, {4, 5}}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitRemoval(tt.costs, tt.final)
			if !slices.Equal(got, tt.want) {
				t.Errorf("splitRemoval = %v, want %v", got, tt.want)
			}
			next := 0
			for i, c := range got {
				if c.from != next {
					t.Errorf("chunk %d starts at %d, want %d", i, c.from, next)
				}
				writes := 0
				for _, cost := range tt.costs[c.from:c.to] {
					writes += cost
				}
				if i == len(got)-1 {
					writes += tt.final
				}
				if writes > transactionWrites && c.to-c.from > 1 {
					t.Errorf("chunk %d costs %d writes", i, writes)
				}
				next = c.to
			}
			if next != tt.wantTotal {
				t.Errorf("chunks cover %d memberships, want %d", next, tt.wantTotal)
			}
		})
	}
}
