package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// The pager, as git pages: long output to a terminal goes through $HUDISCOPE_PAGER, else
// $PAGER, else `less` with LESS=FRX (quit when it fits one screen, keep colours, leave the
// text on the screen) when less is installed. An empty value or `cat` writes directly;
// --no-pager too. Output to a file or pipe, --output-file, --watch and the explorer never
// page.

// pagerDisabled is --no-pager of the running command line (set by Main).
var pagerDisabled bool

// pagerCommand is the pager to run ("" for none) and the variable it came from.
func pagerCommand() (cmd, from string) {
	for _, env := range []string{"HUDISCOPE_PAGER", "PAGER"} {
		if v, ok := os.LookupEnv(env); ok {
			v = strings.TrimSpace(v)
			if v == "" || v == "cat" {
				return "", env
			}
			return v, env
		}
	}
	if _, err := exec.LookPath("less"); err == nil {
		return "less", ""
	}
	return "", ""
}

// pagerWriter is the pager's standard input. Output to it is output to a terminal (values'
// control sequences are escaped as they are on the terminal itself). Once the pager has
// quit (the user pressed q before the end), writes are dropped: the rest is not wanted, and
// that is no error.
type pagerWriter struct {
	pipe *os.File
	quit bool
}

func (p *pagerWriter) Write(b []byte) (int, error) {
	if p.quit {
		return len(b), nil
	}
	n, err := p.pipe.Write(b)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		p.quit = true
		return len(b), nil
	}
	return n, err
}

// startPager starts the pager on the terminal stdout when paging applies; ok false means
// write to stdout directly. done closes the pager's input and waits for the user to quit it,
// so the shell's prompt comes back after the pager, not under it.
func startPager(stdout *os.File) (w io.Writer, done func() error, ok bool) {
	if pagerDisabled || !isTerminal(stdout) {
		return nil, nil, false
	}
	command, from := pagerCommand()
	if command == "" {
		return nil, nil, false
	}
	var cmd *exec.Cmd
	if strings.ContainsAny(command, "|&;<>()$`\\\"'*?[#~=%") {
		cmd = exec.Command("sh", "-c", command)
	} else {
		f := strings.Fields(command)
		path, err := exec.LookPath(f[0])
		if err != nil {
			warnf("pager %q (from $%s) not found; writing without a pager", f[0], from)
			return nil, nil, false
		}
		cmd = exec.Command(path, f[1:]...)
	}
	cmd.Env = os.Environ()
	if _, ok := os.LookupEnv("LESS"); !ok {
		cmd.Env = append(cmd.Env, "LESS=FRX")
	}
	if _, ok := os.LookupEnv("LV"); !ok {
		cmd.Env = append(cmd.Env, "LV=-c")
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, false
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		r.Close()
		pw.Close()
		warnf("pager %q: %v; writing without a pager", command, err)
		return nil, nil, false
	}
	r.Close()
	writer := &pagerWriter{pipe: pw}
	return writer, func() error {
		cerr := pw.Close()
		// The pager's own exit status is the user's business (less exits 0 on q; a pager
		// killed by the user's ctrl+c is not hudiscope's failure).
		_ = cmd.Wait()
		if cerr != nil && !writer.quit && !errors.Is(cerr, syscall.EPIPE) {
			return fmt.Errorf("pager: %w", cerr)
		}
		return nil
	}, true
}
