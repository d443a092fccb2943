package tableconfig

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseProperties parses Java properties text (the format of hoodie.properties and of writer
// props files): `#`/`!` comments, `key=value`, `key: value` or `key value`, backslash line
// continuations and escapes including \uXXXX. Malformed escapes are kept literally rather than
// failing, as Java does for most of them.
func ParseProperties(data []byte) (map[string]string, error) {
	if !utf8.Valid(data) {
		// Java reads properties as ISO-8859-1; map bytes 1:1 so nothing is lost.
		r := make([]rune, len(data))
		for i, b := range data {
			r[i] = rune(b)
		}
		data = []byte(string(r))
	}
	props := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		// Join continuation lines (an odd number of trailing backslashes) in one builder: joining
		// by concatenation copied the whole logical line per physical line, quadratic in a file
		// of `x\` lines.
		if endsWithContinuation(line) && i+1 < len(lines) {
			var b strings.Builder
			for endsWithContinuation(line) && i+1 < len(lines) {
				b.WriteString(line[:len(line)-1])
				i++
				line = strings.TrimLeft(lines[i], " \t\f")
			}
			b.WriteString(line)
			line = b.String()
		}
		key, value := splitProperty(line)
		props[unescapeProperty(key)] = unescapeProperty(value)
	}
	return props, nil
}

func endsWithContinuation(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty finds the first unescaped separator (=, : or whitespace).
func splitProperty(line string) (string, string) {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '=', ':':
			return line[:i], strings.TrimLeft(line[i+1:], " \t\f")
		case ' ', '\t', '\f':
			rest := strings.TrimLeft(line[i:], " \t\f")
			if rest != "" && (rest[0] == '=' || rest[0] == ':') {
				rest = strings.TrimLeft(rest[1:], " \t\f")
			}
			return line[:i], rest
		}
	}
	return line, ""
}

func unescapeProperty(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+4 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(v))
					i += 4
					continue
				}
			}
			b.WriteString("\\u")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
