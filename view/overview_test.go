package view

import "testing"

func TestHudiLine(t *testing.T) {
	for v, want := range map[int]string{4: "0.11", 5: "0.12/0.13", 6: "0.14/0.15", 8: "1.0", 9: "1.1+"} {
		if got := HudiLine(v); got != want {
			t.Errorf("v%d: %s, want %s", v, got, want)
		}
	}
}
