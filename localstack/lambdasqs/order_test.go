package lambdasqs

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

func msg(id, group, seq string) types.Message {
	return types.Message{MessageId: aws.String(id), Attributes: map[string]string{"MessageGroupId": group, "SequenceNumber": seq}}
}

func TestCompareSequenceIsNumeric(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"18446744073709551616", "18446744073709551615", 1}, // beyond uint64
		{"42", "42", 0},
	}
	for _, tt := range tests {
		if got := compareSequence(tt.a, tt.b); got != tt.want {
			t.Errorf("compareSequence(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestGroupOrderHoldsTheGroupUntilItsHeadReturns(t *testing.T) {
	var o groupOrder
	t0 := time.Now()
	visibleAt := t0.Add(time.Second)
	o.failed([]types.Message{msg("a1", "a", "1"), msg("b1", "b", "5")}, map[string]bool{"a1": true}, func(string) time.Time { return visibleAt })

	// Before a1 is visible again: a2 is held, b2 goes through.
	adm := o.admit([]types.Message{msg("a2", "a", "2"), msg("b2", "b", "6")}, t0.Add(100*time.Millisecond), false, time.Minute)
	if got := ids(adm.ready); !slices.Equal(got, []string{"b2"}) {
		t.Fatalf("ready = %v, want [b2]", got)
	}
	if got := ids(adm.held); !slices.Equal(got, []string{"a2"}) {
		t.Fatalf("held = %v, want [a2]", got)
	}
	// a1 is back: it goes first, then the held a2.
	adm = o.admit([]types.Message{msg("a1", "a", "1")}, t0.Add(2*time.Second), false, time.Minute)
	if got := ids(adm.ready); !slices.Equal(got, []string{"a1", "a2"}) {
		t.Fatalf("ready = %v, want [a1 a2]", got)
	}
	if got := ids(adm.released); !slices.Equal(got, []string{"a2"}) || o.heldCount() != 0 {
		t.Fatalf("released = %v, held %d; want [a2], 0", got, o.heldCount())
	}
}

func TestGroupOrderReleasesTheGroupWhenItsHeadLeftTheQueue(t *testing.T) {
	var o groupOrder
	t0 := time.Now()
	o.failed([]types.Message{msg("a1", "a", "1")}, map[string]bool{"a1": true}, func(string) time.Time { return t0.Add(time.Second) })
	o.admit([]types.Message{msg("a2", "a", "2")}, t0, false, time.Minute)

	// After a1's visibility ran out, a full receive may simply not have
	// reached a1 yet: keep holding.
	if adm := o.admit(nil, t0.Add(2*time.Second), true, time.Minute); len(adm.ready) != 0 {
		t.Fatalf("released on a full receive: %v", ids(adm.ready))
	}
	// A receive that was not full and lacks a1: a1 is in the DLQ.
	adm := o.admit(nil, t0.Add(2*time.Second), false, time.Minute)
	if got := ids(adm.ready); !slices.Equal(got, []string{"a2"}) {
		t.Fatalf("ready = %v, want [a2]", got)
	}
}

func TestSortByGroupOrdersEachGroupBySequence(t *testing.T) {
	msgs := []types.Message{msg("a3", "a", "30"), msg("b1", "b", "5"), msg("a1", "a", "9"), msg("a2", "a", "10")}
	sortByGroup(msgs)
	if got := ids(msgs); !slices.Equal(got, []string{"a1", "a2", "a3", "b1"}) {
		t.Fatalf("sorted = %v", got)
	}
}

// The head failed with the rest of its group in the batch; a receive that
// brings the head back without a2 must not let the held a3 overtake a2.
func TestGroupOrderWaitsForEveryFailedMessageOfTheBatch(t *testing.T) {
	var o groupOrder
	t0 := time.Now()
	o.failed([]types.Message{msg("a1", "a", "1"), msg("a2", "a", "2")}, map[string]bool{"a1": true, "a2": true},
		func(string) time.Time { return t0.Add(time.Second) })
	o.admit([]types.Message{msg("a3", "a", "3")}, t0, false, time.Minute) // held
	adm := o.admit([]types.Message{msg("a1", "a", "1"), msg("x", "x", "9")}, t0.Add(2*time.Second), true, time.Minute)
	if got := ids(adm.ready); !slices.Equal(got, []string{"x"}) {
		t.Fatalf("ready = %v, want [x]: a1 and a3 wait for a2", got)
	}
	if got := ids(adm.held); !slices.Equal(got, []string{"a1"}) {
		t.Fatalf("held = %v, want [a1]", got)
	}
	adm = o.admit([]types.Message{msg("a2", "a", "2")}, t0.Add(3*time.Second), false, time.Minute)
	if got := ids(adm.ready); !slices.Equal(got, []string{"a1", "a2", "a3"}) {
		t.Fatalf("ready = %v, want [a1 a2 a3]", got)
	}
	if got := ids(adm.released); !slices.Equal(got, []string{"a3", "a1"}) {
		t.Fatalf("released = %v, want the earlier held [a3 a1]", got)
	}
}

func TestPackNeverSplitsAGroupAcrossBatches(t *testing.T) {
	ready := []types.Message{msg("a1", "a", "1"), msg("a2", "a", "2"), msg("a3", "a", "3"), msg("b1", "b", "1"), msg("c1", "c", "1"), msg("c2", "c", "2")}
	batches, overflow := pack(ready, 2)
	var got [][]string
	for _, b := range batches {
		got = append(got, ids(b))
	}
	if len(got) != 3 || !slices.Equal(got[0], []string{"a1", "a2"}) || !slices.Equal(got[1], []string{"b1"}) || !slices.Equal(got[2], []string{"c1", "c2"}) {
		t.Fatalf("batches = %v", got)
	}
	if !slices.Equal(ids(overflow), []string{"a3"}) {
		t.Fatalf("overflow = %v, want [a3]", ids(overflow))
	}
}
