package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hudiscope/hudiscope/hudi/records"
)

// openPTY opens a pseudo-terminal: the master to read what was written to the slave.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pts: %v", err)
	}
	// Raw output: no \n -> \r\n translation, so the bytes read are the bytes written.
	if tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS); err == nil {
		tio.Oflag &^= unix.OPOST
		tio.Lflag &^= unix.ECHO
		_ = unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// hostileRecord carries issue 31's values: a key that turns the terminal red, a value that
// retitles the window, a comma and a quote (RFC 4180 quoting).
var hostileRecord = records.Record{Fields: []string{"_hoodie_record_key", "name", "note"}, Values: map[string]any{
	"_hoodie_record_key": "k-\x1b[31mred\x1b[0m-5", "name": "\x1b]0;pwned\x07", "note": `a,"b"`,
}}

func writeHostileCSV(t *testing.T, w *os.File) {
	t.Helper()
	rw := newRowWriter(w, "csv", nil)
	if err := rw.write(hostileRecord); err != nil {
		t.Fatal(err)
	}
	if err := rw.flush(); err != nil {
		t.Fatal(err)
	}
}

// TestCSVTerminalEscaped: CSV written to a terminal escapes ESC and BEL as the text form does
// (no raw control byte reaches the terminal); the grouping keys of --count --by too.
func TestCSVTerminalEscaped(t *testing.T) {
	m, s := openPTY(t)
	writeHostileCSV(t, s)
	if err := writeCount(s, "csv", 1, "partition", map[string]int{"p\x1b[2J": 1}); err != nil {
		t.Fatal(err)
	}
	want := "_hoodie_record_key,name,note\n" + `k-\x1b[31mred\x1b[0m-5,\x1b]0;pwned\x07,"a,""b"""` + "\n" + "partition,count\n" + `p\x1b[2J,1` + "\n"
	got := readPTY(t, m, s)
	if got != want {
		t.Errorf("terminal got\n%q\nwant\n%q", got, want)
	}
}

// TestCSVFileExact: CSV to a file (or pipe) keeps the values' bytes exactly, quoted per RFC 4180.
func TestCSVFileExact(t *testing.T) {
	f, err := os.Create(t.TempDir() + "/rows.csv")
	if err != nil {
		t.Fatal(err)
	}
	writeHostileCSV(t, f)
	f.Close()
	got, _ := os.ReadFile(f.Name())
	want := "_hoodie_record_key,name,note\nk-\x1b[31mred\x1b[0m-5,\x1b]0;pwned\x07,\"a,\"\"b\"\"\"\n"
	if string(got) != want {
		t.Errorf("file got %q, want %q", got, want)
	}
}

// drainPTY reads the master until the terminal closes (EIO) and sends all it read.
func drainPTY(m *os.File) <-chan string {
	out := make(chan string, 1)
	go func() {
		var buf bytes.Buffer
		b := make([]byte, 4096)
		for {
			k, err := m.Read(b)
			buf.Write(b[:k])
			if err != nil {
				break
			}
		}
		out <- buf.String()
	}()
	return out
}

// readPTY closes the slave and reads what it was sent: the master returns the buffered bytes,
// then EIO. A reader that never ends fails the test after 5 s instead of hanging it.
func readPTY(t *testing.T, m, s *os.File) string {
	t.Helper()
	s.Close()
	done := drainPTY(m)
	select {
	case got := <-done:
		return got
	case <-time.After(5 * time.Second):
		t.Fatal("the pseudo-terminal's master did not end")
		return ""
	}
}

// The row commands' --help says which CSV form goes where.
func TestCSVHelpSaysTerminal(t *testing.T) {
	for _, cmd := range []string{"snapshot", "incremental", "changes"} {
		stdout, _, _ := runCLI(t, cmd, "--help")
		if !strings.Contains(strings.Join(strings.Fields(stdout), " "), "CSV to a terminal escapes control characters") {
			t.Errorf("%s --help does not say how CSV treats a terminal:\n%s", cmd, stdout)
		}
	}
}
