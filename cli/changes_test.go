package cli

import (
	"strings"
	"testing"
)

// changes: the CDC rows in three formats, a count, and the refusal on a table without CDC.
func TestChangesCommand(t *testing.T) {
	tbl := fixture("cdc-1.2.0")
	stdout, stderr, code := runCLI(t, "changes", tbl, "--begin", "earliest", "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 6 || lines[0] != "op,ts_ms,before,after" || lines[3] != `u,20261129155830907,"{""id"":1,""name"":""a"",""ts"":1}","{""id"":1,""name"":""a2"",""ts"":2}"` {
		t.Errorf("csv:\n%s", stdout)
	}
	stdout, _, code = runCLI(t, "changes", tbl, "--begin", "earliest", "--count")
	if code != 0 || stdout != "5\n" {
		t.Errorf("count: exit %d, %q", code, stdout)
	}
	stdout, _, _ = runCLI(t, "changes", tbl, "--begin", "earliest", "-o", "json", "--limit", "1")
	if !strings.HasPrefix(stdout, `{"op":"i","ts_ms":"20261129155759865","before":null,"after":{`) || strings.Count(stdout, "\n") != 1 {
		t.Errorf("json: %q", stdout)
	}
	stdout, _, _ = runCLI(t, "changes", tbl, "--begin", "earliest")
	if !strings.HasPrefix(stdout, "op  ts_ms              before") || !strings.Contains(stdout, "\nd   20261129155835832  {\"id\":2,\"name\":\"b\",\"ts\":1}  null\n") {
		t.Errorf("text:\n%s", stdout)
	}
	_, stderr, code = runCLI(t, "changes", fixture("incr-1.2.0"), "--begin", "earliest")
	if code != exitUsage || !strings.Contains(stderr, "is not a CDC table") || !strings.Contains(stderr, "hudiscope incremental ") {
		t.Errorf("non-CDC table: exit %d, %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "changes", tbl, "--begin", "soon")
	if code != exitUsage || !strings.Contains(stderr, `--begin "soon" is neither 'earliest' nor an instant time`) {
		t.Errorf("bad begin: exit %d, %s", code, stderr)
	}
}
