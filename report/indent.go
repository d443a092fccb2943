package report

// appendIndented appends compact JSON src (as json.Marshal writes it: no insignificant
// whitespace) to dst, indented exactly as json.Indent(dst, src, prefix, indent) would. It
// skips string contents with a byte search instead of json.Indent's per-byte state machine —
// the indent pass was a fifth of `files --json` on a million-file table.
func appendIndented(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for j < len(src) {
				k := indexQuoteOrBackslash(src[j:])
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				if src[j] == '\\' {
					j += 2
					continue
				}
				break
			}
			if j >= len(src) {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func indexQuoteOrBackslash(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' {
			return i
		}
	}
	return -1
}
