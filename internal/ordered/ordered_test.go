package ordered

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// Results come back in input order however long each piece takes.
func TestRangeKeepsOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		var got []int
		err := Range(100, workers, func(i int) int {
			time.Sleep(time.Duration((i*7919)%5) * 100 * time.Microsecond)
			return i * i
		}, func(v int) error { got = append(got, v); return nil })
		want := make([]int, 100)
		for i := range want {
			want[i] = i * i
		}
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%d workers: %v %v", workers, got, err)
		}
	}
}

// A failing consumer stops the stream: no further call, no more input taken, its error back.
func TestStreamStopsOnConsumerError(t *testing.T) {
	for _, workers := range []int{1, 2} {
		taken, calls := 0, 0
		err := Stream(workers, func() (int, bool, error) { taken++; return taken, taken <= 1000, nil },
			func(i int) int { return i }, func(int) error { calls++; return errors.New("disk full") })
		if err == nil || err.Error() != "disk full" || calls != 1 || taken > 1+2*workers+2 {
			t.Errorf("%d workers: %v after %d calls, %d taken", workers, err, calls, taken)
		}
	}
}

// An input error ends the stream after what came before it is consumed.
func TestStreamInputError(t *testing.T) {
	for _, workers := range []int{1, 2} {
		n := 0
		var got []int
		err := Stream(workers, func() (int, bool, error) {
			n++
			if n == 4 {
				return 0, false, errors.New("truncated block")
			}
			return n, true, nil
		}, func(i int) int { return i }, func(v int) error { got = append(got, v); return nil })
		if err == nil || err.Error() != "truncated block" || !slices.Equal(got, []int{1, 2, 3}) {
			t.Errorf("%d workers: %v %v", workers, got, err)
		}
	}
}
