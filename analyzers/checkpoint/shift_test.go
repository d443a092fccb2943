package checkpoint

import "testing"

// Shifting a time by a millisecond; the bootstrap instants (no dates) count as numbers: one
// before 00000000000001 is Hudi's init time, so a table whose first write is its bootstrap
// gets an earliest begin that reads the bootstrap (it got the bootstrap instant itself, which
// an exclusive 0.x reader skips).
func TestShiftMillis(t *testing.T) {
	for _, c := range []struct {
		in   string
		d    int
		want string
	}{
		{"20261201230432440", -1, "20261201230432439"},
		{"20261201230432", -1, "20261201230432998"},
		{"00000000000001", -1, "00000000000000"},
		{"00000000000002", 1, "00000000000003"},
		{"00000000000000", -1, "00000000000000"},
		{"not-a-time", -1, "not-a-time"},
	} {
		if got := shiftMillis(c.in, c.d); got != c.want {
			t.Errorf("shiftMillis(%s, %d) = %s, want %s", c.in, c.d, got, c.want)
		}
	}
}
