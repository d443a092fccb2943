package units

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		in            int64
		full, compact string
	}{
		{0, "0 B", "0B"},
		{999, "999 B", "999B"},
		{1000, "1.0 KiB", "1.0KiB"},
		{1023, "1.0 KiB", "1.0KiB"},
		{1024, "1.0 KiB", "1.0KiB"},
		{1536, "1.5 KiB", "1.5KiB"},
		{10188, "9.9 KiB", "9.9KiB"},
		{10189, "10 KiB", "10KiB"},
		{999 << 10, "999 KiB", "999KiB"},
		{1<<20 - 1, "1.0 MiB", "1.0MiB"},
		{1 << 20, "1.0 MiB", "1.0MiB"},
		{50 << 20, "50 MiB", "50MiB"},
		{100 << 20, "100 MiB", "100MiB"},
		{1 << 30, "1.0 GiB", "1.0GiB"},
		{1 << 40, "1.0 TiB", "1.0TiB"},
		{-1536, "-1.5 KiB", "-1.5KiB"},
		{-5, "-5 B", "-5B"},
		{math.MaxInt64, "8.0 EiB", "8.0EiB"},
		{math.MinInt64, "-8.0 EiB", "-8.0EiB"},
	} {
		if got := Bytes(c.in); got != c.full {
			t.Errorf("Bytes(%d) = %q, want %q", c.in, got, c.full)
		}
		if got := BytesCompact(c.in); got != c.compact {
			t.Errorf("BytesCompact(%d) = %q, want %q", c.in, got, c.compact)
		}
		if c.in >= 0 && len(BytesCompact(c.in)) > 6 {
			t.Errorf("BytesCompact(%d) = %q, over 6 cells", c.in, BytesCompact(c.in))
		}
	}
}

func TestCount(t *testing.T) {
	for in, want := range map[int64]string{
		0: "0", 999: "999", 1000: "1.0k", 1234: "1.2k", 45_678: "45k", 3_456_789: "3.5M",
		123_456_789: "123M", 1_500_000_000: "1.5G", 12_000_000_000: "12G", -1234: "-1.2k",
		math.MinInt64: "-9223372036G",
	} {
		if got := Count(in); got != want {
			t.Errorf("Count(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{
		0: "0", 41938845.696: "41M", 0.0024089: "0.00241", 123.4: "123", 12.34: "12.3",
		1.234: "1.23", -1.5: "-1.50", 2e19: "2e+19", math.NaN(): "-", math.Inf(1): "-",
	} {
		if got := Num(in); got != want {
			t.Errorf("Num(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestMillis(t *testing.T) {
	for in, want := range map[int64]string{-1: "-", 0: "0s", 1234: "1.234s", 123_456: "2m3s"} {
		if got := Millis(in); got != want {
			t.Errorf("Millis(%d) = %q, want %q", in, got, want)
		}
	}
}

// decimal matches a size in decimal units ("191.72 KB", "50 MB", "1GB").
var decimal = regexp.MustCompile(`\b\d[\d.,]* ?(KB|MB|GB|TB|PB)\b`)

// TestNoDecimalUnitsInGoldens: the Markdown and TUI goldens show sizes in binary units only.
// Exceptions are the catalog's own prose (it quotes Hudi's defaults, e.g. "the 1 GB merge
// map"); no Java-tool text is kept verbatim in them.
func TestNoDecimalUnitsInGoldens(t *testing.T) {
	root := filepath.Join("..", "..")
	catalog, err := os.ReadFile(filepath.Join(root, "assets", "findings_catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, m := range decimal.FindAllString(string(catalog), -1) {
		allowed[m] = true
	}
	n := 0
	for _, dir := range []string{"report", "ui"} {
		err := filepath.WalkDir(filepath.Join(root, dir, "testdata"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".golden") {
				return err
			}
			n++
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				for _, m := range decimal.FindAllString(line, -1) {
					if !allowed[m] {
						t.Errorf("%s:%d: decimal unit %q: %s", p, i+1, m, strings.TrimSpace(line))
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("no goldens found")
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "1024": 1024, "512MiB": 512 << 20, "1GiB": 1 << 30, "1g": 1 << 30, "64KB": 64000,
		"2 MB": 2000000, "3k": 3072, "5B": 5, "1TiB": 1 << 40,
	} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1", "12XB", "1.5GiB", "99999999999TiB"} {
		if n, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) = %d, accepted", bad, n)
		}
	}
}

func TestBytesSetting(t *testing.T) {
	for n, want := range map[int64]string{700: "700 B", 1536: "1.5 KiB", 2 << 30: "2 GiB", 50_000_000_000: "46.6 GiB"} {
		if got := BytesSetting(n); got != want {
			t.Errorf("BytesSetting(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzParseBytes: --max-read-size values never panic; an accepted size is not negative and
// its plain byte count parses back to itself.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"256MiB", "1g", "64KB", "0", "9223372036854775807", "8EiB", "1 TiB", "12XB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseBytes(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseBytes(%q) = %d", s, n)
		}
		if m, err := ParseBytes(strconv.FormatInt(n, 10)); err != nil || m != n {
			t.Fatalf("round trip of %d: %d %v", n, m, err)
		}
		_ = BytesSetting(n)
	})
}

// The variants keep the formats their outputs had before they moved here (storage's read
// ceiling, the Avro and log-block readers' messages, the layout's size buckets, the layout
// report's configured sizes, the TUI's and the fleet table's durations and ages).
func TestVariants(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{BytesMessage(12), "12 bytes"},
		{BytesMessage(3 << 10), "3 KiB"},
		{BytesMessage(82<<20 + 1<<19), "82 MiB"}, // 82.5 rounds to even
		{BytesMessage(3 << 29), "1.5 GiB"},
		{BytesFloor(512), "512"},
		{BytesFloor(3<<10 + 1000), "3K"},
		{BytesFloor(128 << 20), "128M"},
		{BytesFloor(5<<30 - 1), "4G"},
		{BytesExact(1000), "1000"},
		{BytesExact(120 << 20), "120M"},
		{BytesExact(1<<30 + 1<<20), "1025M"},
		{BytesExact(2 << 40), "2T"},
		{Duration(850 * time.Millisecond), "850ms"},
		{Duration(4200 * time.Millisecond), "4.2s"},
		{Duration(3*time.Minute + 5*time.Second), "3m05s"},
		{Duration(2*time.Hour + 13*time.Minute), "2h13m"},
		{Duration(76 * time.Hour), "3d4h"},
		{Duration(-1500 * time.Millisecond), "-1.5s"},
		{Seconds(0.85), "850ms"},
		{Seconds(42.4), "42s"},
		{Seconds(185), "3m05"},
		{Seconds(2520), "42m"},
		{Seconds(7980), "2h13"},
		{Seconds(3 * 86400), "3d"},
		{Age(45 * time.Second), "45s"},
		{Age(47 * time.Hour), "47h"},
		{Age(96 * time.Hour), "4d"},
		{AgeDays(40), "40s"},
		{AgeDays(5 * 3600), "5h"},
		{AgeDays(47 * 3600), "1d"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
