package source

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
)

// SHS names an application on a Spark History Server.
type SHS struct {
	BaseURL   string // e.g. http://localhost:18080
	AppID     string
	AttemptID string // optional
}

// ParseSHS parses shs://HOST:PORT/APP_ID[/ATTEMPT_ID] (shs+https:// for TLS).
func ParseSHS(p string) (SHS, bool, error) {
	scheme := "http"
	switch {
	case strings.HasPrefix(p, "shs://"):
	case strings.HasPrefix(p, "shs+https://"):
		scheme = "https"
	default:
		return SHS{}, false, nil
	}
	u, err := url.Parse(p)
	if err != nil {
		return SHS{}, true, err
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Host == "" || len(parts) == 0 || parts[0] == "" || len(parts) > 2 {
		return SHS{}, true, fmt.Errorf("%s: want shs://HOST:PORT/APP_ID[/ATTEMPT_ID]", p)
	}
	s := SHS{BaseURL: scheme + "://" + u.Host, AppID: parts[0]}
	if len(parts) == 2 {
		s.AttemptID = parts[1]
	}
	return s, true, nil
}

// LogsURL is the REST endpoint that serves the application's logs as a zip.
func (s SHS) LogsURL() string {
	u := strings.TrimRight(s.BaseURL, "/") + "/api/v1/applications/" + url.PathEscape(s.AppID)
	if s.AttemptID != "" {
		u += "/" + url.PathEscape(s.AttemptID)
	}
	return u + "/logs"
}

// Download is a History Server zip saved to a temporary file.
type Download struct {
	Opener Opener
	Root   string // path inside the zip to pass to Resolve
	Notes  []string
	Bytes  int64
	file   *os.File
}

// Close removes the temporary file.
func (d *Download) Close() error {
	if d.file == nil {
		return nil
	}
	name := d.file.Name()
	err := d.file.Close()
	os.Remove(name)
	d.file = nil
	return err
}

// Fetch downloads the application's event logs. client nil means http.DefaultClient.
func (s SHS) Fetch(ctx context.Context, client *http.Client) (*Download, error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.LogsURL(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("history server: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("history server: GET %s: %s: %s", s.LogsURL(), resp.Status, strings.TrimSpace(string(msg)))
	}
	f, err := os.CreateTemp("", "hudiscope-shs-*.zip")
	if err != nil {
		return nil, err
	}
	d := &Download{file: f}
	n, err := io.Copy(f, resp.Body)
	d.Bytes = n
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("history server: reading zip: %w", err)
	}
	zr, err := zip.NewReader(f, n)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("history server: %s is not a zip: %w", s.LogsURL(), err)
	}
	d.Opener = FSOpener(zr)
	root, notes, err := pickRoot(d.Opener)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("history server %s: %w", s.LogsURL(), err)
	}
	d.Root, d.Notes = root, notes
	return d, nil
}

// pickRoot chooses what to read in the zip: its single entry, or the last
// attempt when the server sent several.
func pickRoot(op Opener) (string, []string, error) {
	entries, err := op.List(".")
	if err != nil {
		return "", nil, err
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name, ".") {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	switch len(names) {
	case 0:
		return "", nil, fmt.Errorf("empty zip: %w", ErrNoLog)
	case 1:
		return names[0], nil, nil
	}
	// Loose rolling parts at the top level form one log.
	for _, n := range names {
		if _, ok := rollingIndex(n); ok {
			return ".", nil, nil
		}
	}
	last := names[len(names)-1]
	return last, []string{fmt.Sprintf("the History Server sent %d attempts (%s); reading the last, %s (add /ATTEMPT_ID to choose)",
		len(names), strings.Join(names, ", "), last)}, nil
}
