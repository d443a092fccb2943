package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/alecthomas/kong"
)

// The configuration file holds defaults for flags, in TOML: top-level keys apply to every
// command that has the flag, a [command] table to that command only. Keys are flag names
// (s3-endpoint or s3_endpoint). Flags given on the command line win over the file.
//
//	s3-region = "eu-west-1"
//	export-dir = "/tmp/hudiscope"
//	ascii = true
//	[layout]
//	small-files-threshold-bytes = 104857600

// defaultConfigPath is $XDG_CONFIG_HOME/hudiscope/config.toml (~/.config when unset).
func defaultConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "hudiscope", "config.toml")
}

// configFileFor finds the configuration file for this run: --config, then $HUDISCOPE_CONFIG
// (both must exist), then the default path when it exists. "" when there is none.
func configFileFor(args []string) (string, error) {
	explicit := os.Getenv("HUDISCOPE_CONFIG")
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--config="); ok {
			explicit = v
		} else if a == "--config" && i+1 < len(args) {
			explicit = args[i+1]
		}
	}
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("configuration file: %w", err)
		}
		return explicit, nil
	}
	if p := defaultConfigPath(); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", nil
}

// tomlResolver resolves flags from a decoded TOML document.
type tomlResolver struct {
	path     string // the file, named in Validate's error
	top      map[string]any
	commands map[string]map[string]any
}

func normKey(k string) string { return strings.ReplaceAll(strings.ToLower(k), "_", "-") }

// tomlLoaderFor reads the configuration file at path (kong opens it; the path names it in
// messages).
func tomlLoaderFor(path string) kong.ConfigurationLoader {
	return func(r io.Reader) (kong.Resolver, error) { return tomlLoader(r, path) }
}

func tomlLoader(r io.Reader, path string) (*tomlResolver, error) {
	var doc map[string]any
	if _, err := toml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("configuration file: %w", err)
	}
	res := &tomlResolver{path: path, top: map[string]any{}, commands: map[string]map[string]any{}}
	for k, v := range doc {
		if tbl, ok := v.(map[string]any); ok {
			m := map[string]any{}
			for fk, fv := range tbl {
				m[normKey(fk)] = fv
			}
			res.commands[normKey(k)] = m
			continue
		}
		res.top[normKey(k)] = v
	}
	return res, nil
}

// Validate rejects keys no flag has, so a typo in the file is an error, not a silent default.
func (r *tomlResolver) Validate(app *kong.Application) error {
	flags := map[string]map[string]bool{} // command → flag names ("" = any command)
	flags[""] = map[string]bool{}
	var walk func(n *kong.Node, cmd string)
	walk = func(n *kong.Node, cmd string) {
		for _, f := range n.Flags {
			if flags[cmd] == nil {
				flags[cmd] = map[string]bool{}
			}
			flags[cmd][f.Name] = true
			flags[""][f.Name] = true
		}
		for _, c := range n.Children {
			walk(c, c.Name)
		}
	}
	walk(app.Node, "")
	var bad []string
	for k := range r.top {
		if !flags[""][k] {
			bad = append(bad, k)
		}
	}
	for cmd, m := range r.commands {
		if flags[cmd] == nil {
			bad = append(bad, "["+cmd+"]")
			continue
		}
		for k := range m {
			if !flags[cmd][k] && !flags[""][k] {
				bad = append(bad, cmd+"."+k)
			}
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("configuration file %s: unknown key(s) %s", r.path, strings.Join(bad, ", "))
	}
	return nil
}

// Resolve takes the command's own table first, then the top level.
func (r *tomlResolver) Resolve(ctx *kong.Context, parent *kong.Path, flag *kong.Flag) (any, error) {
	if cmd := ctx.Selected(); cmd != nil {
		if m := r.commands[cmd.Name]; m != nil {
			if v, ok := m[flag.Name]; ok {
				return resolvedValue(v), nil
			}
		}
	}
	if v, ok := r.top[flag.Name]; ok {
		return resolvedValue(v), nil
	}
	return nil, nil
}

// resolvedValue gives kong numbers as text: TOML integers arrive as int64, which kong's
// mappers for int and float flags do not all take.
func resolvedValue(v any) any {
	switch x := v.(type) {
	case int64, float64:
		return fmt.Sprint(x)
	}
	return v
}

// ConfigCmd reports the configuration file.
type ConfigCmd struct {
	Path ConfigPathCmd `cmd:"" default:"1" help:"Print the configuration file's path and whether it exists."`
}

// ConfigPathCmd prints where the configuration is read from.
type ConfigPathCmd struct{}

func (ConfigPathCmd) examples() []string {
	return []string{
		`hudiscope config path`,
		`printf 's3-region = "eu-west-1"\nexport-dir = "/tmp"\n' > "$(hudiscope config path | cut -d' ' -f1)"`,
	}
}

// Run prints the path and its state; a file that does not parse or has unknown keys is named
// with the error and exits 2, as every other command does on it (config itself does not read
// the file, so it can still say which file is broken).
func (ConfigPathCmd) Run(root *CLI, kctx *kong.Context) error {
	p := root.ConfigFile
	if p == "" {
		p = defaultConfigPath()
	}
	f, err := os.Open(p)
	if err != nil {
		fmt.Printf("%s (not present)\n", p)
		if root.ConfigFile != "" { // --config or HUDISCOPE_CONFIG names a file that must exist
			return codeError{exitUsage, fmt.Sprintf("configuration file: %v", err)}
		}
		return nil
	}
	defer f.Close()
	res, err := tomlLoader(f, p)
	if err != nil {
		err = fmt.Errorf("%s: %w", p, err)
	} else {
		err = res.Validate(kctx.Model)
	}
	if err != nil {
		fmt.Printf("%s (invalid)\n", p)
		return codeError{exitUsage, err.Error()}
	}
	fmt.Printf("%s (exists)\n", p)
	return nil
}
