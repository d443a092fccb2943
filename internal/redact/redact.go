// Package redact is the one redaction every output path uses: whatever hudiscope prints,
// exports or logs that may carry a configured value, a path or an error message goes through
// Value (or Text), so a credential never reaches a terminal, a report or a log.
package redact

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/assets"
)

// Marker is what a secret value is shown as.
const Marker = "***"

// secretMarkers are the key fragments that name a credential (assets/known_configs.json).
var secretMarkers []string

func init() {
	var kc struct {
		Secret []string `json:"secretKeyMarkers"`
	}
	if err := json.Unmarshal(assets.KnownConfigs, &kc); err != nil {
		panic("assets/known_configs.json: " + err.Error())
	}
	secretMarkers = kc.Secret
}

// IsSecret reports whether a key names a credential (password, secret, token, credential,
// access key, session, pwd, storepass, a SAS sig and the like).
func IsSecret(key string) bool {
	k := strings.ToLower(key)
	for _, m := range secretMarkers {
		if strings.Contains(k, m) {
			return true
		}
	}
	// Short names only as a whole last segment (x.sig, not design).
	last := k[strings.LastIndexAny(k, "._-")+1:]
	return last == "sig" || last == "pw"
}

var (
	// uriUserInfo is scheme://user[:password]@; the password may hold '/' or '@' (greedy to
	// the token's last '@').
	uriUserInfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)([^:/@\s"']+)(:[^\s"']*)?@`)
	// keyUser: a URI user that is itself a key (s3a://ACCESSKEY:SECRET@bucket, AKIA… IDs).
	keyUser = regexp.MustCompile(`^(?i:s3[an]?://)|^A[KS]IA[A-Z0-9]*$`)
	// oracleThin is jdbc:oracle:thin:user/password@host.
	oracleThin = regexp.MustCompile(`(?i)(jdbc:oracle:thin:[^/@\s"':]+/)[^\s"']*@`)
	// zkDigest is a ZooKeeper digest:user:password.
	zkDigest = regexp.MustCompile(`(?i)(\bdigest:[^:\s"',]+:)[^\s"',;]+`)
	// bearer is an HTTP Bearer token.
	bearer = regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9\-._~+/]+=*`)
	// storePass is keytool's -storepass/-keypass PW.
	storePass = regexp.MustCompile(`(?i)(-(?:store|key|src|dest)*pass\s+)[^\s"'*][^\s"']*`)
	// embeddedKV is a key=value inside a value: a JDBC URL's ;password=…, a query string's
	// &token=…, a --hoodie-conf or -D option in an argument list.
	embeddedKV = regexp.MustCompile(`([A-Za-z0-9_.\-]+)=([^\s;&,'"]+)`)
	// quotedKV is key="…" / key: "…" / JSON "key":"…"; quotedKV1 the single-quoted form.
	// escapedQuotedKV is key=\"…\": a quoted value nested in another quoted value (a JAAS
	// password=\"…\" inside JVM options); it runs before embeddedKV, which would take only the
	// backslash as the value and leave the secret after it.
	escapedQuotedKV = regexp.MustCompile(`([A-Za-z0-9_.\-]+)(\s*[=:]\s*\\")((?:[^"\\]|\\[^"])*)\\"`)
	// akidSecret is an AWS access-key id, ':' and its secret (AKIA…:wJalr…) in a value.
	akidSecret = regexp.MustCompile(`\bA[KS]IA[A-Z0-9]{12,}:[A-Za-z0-9/+=]{16,}`)
	quotedKV   = regexp.MustCompile(`([A-Za-z0-9_.\-]+)("?\s*[=:]\s*")((?:[^"\\]|\\.)*)"`)
	quotedKV1  = regexp.MustCompile(`([A-Za-z0-9_.\-]+)('?\s*[=:]\s*')([^']*)'`)
)

// Value returns value as it may be displayed under key: fully redacted for secret keys;
// otherwise with URI passwords (user:***@), Oracle thin passwords, ZooKeeper digests, Bearer
// tokens, -storepass values and the value of any embedded secret key=value, key="…" or
// "key":"…" replaced. docs/security.md lists the forms.
func Value(key, value string) string {
	if key != "" && IsSecret(key) {
		if value == "" {
			return ""
		}
		return Marker
	}
	if strings.Contains(value, "@") {
		value = uriUserInfo.ReplaceAllStringFunc(value, func(m string) string {
			g := uriUserInfo.FindStringSubmatch(m)
			user := g[2]
			if g[3] == "" || keyUser.MatchString(g[1]) || keyUser.MatchString(user) {
				user = Marker
			}
			if g[3] == "" {
				return g[1] + user + "@"
			}
			return g[1] + user + ":" + Marker + "@"
		})
		value = oracleThin.ReplaceAllString(value, "${1}"+Marker+"@")
	}
	if strings.Contains(value, ":") {
		value = zkDigest.ReplaceAllString(value, "${1}"+Marker)
	}
	if strings.Contains(value, "IA") {
		value = akidSecret.ReplaceAllString(value, Marker+":"+Marker)
	}
	value = bearer.ReplaceAllString(value, "${1}"+Marker)
	value = storePass.ReplaceAllString(value, "${1}"+Marker)
	if strings.ContainsAny(value, "=:") {
		if strings.Contains(value, `\"`) {
			value = escapedQuotedKV.ReplaceAllStringFunc(value, func(m string) string {
				g := escapedQuotedKV.FindStringSubmatch(m)
				if !IsSecret(g[1]) {
					return m
				}
				return g[1] + g[2] + Marker + `\"`
			})
		}
		value = embeddedKV.ReplaceAllStringFunc(value, func(m string) string {
			k, v, _ := strings.Cut(m, "=")
			if !IsSecret(k) || v == Marker || v == `\` { // `\`: an escaped quote's, done above
				return m
			}
			// Trailing colons end a message's "FILE: " (password=x: list …), not the secret.
			return k + "=" + Marker + v[len(strings.TrimRight(v, ":")):]
		})
		for _, re := range []*regexp.Regexp{quotedKV, quotedKV1} {
			value = re.ReplaceAllStringFunc(value, func(m string) string {
				g := re.FindStringSubmatch(m)
				if !IsSecret(g[1]) {
					return m
				}
				return g[1] + g[2] + Marker + m[len(m)-1:]
			})
		}
	}
	if known := knownSecrets(); len(known) > 0 {
		for _, k := range known {
			if strings.Contains(value, k) {
				value = strings.ReplaceAll(value, k, Marker)
			}
		}
	}
	return value
}

var (
	knownMu sync.RWMutex
	known   []string
)

// AddSecret registers credential values this process uses (an S3 secret key or session token
// the SDK resolved): Value hides them wherever they appear, under any key or none, since a
// server may echo one where no pattern can tell it is a secret (an S3 error <Code>). Values
// shorter than 8 bytes are ignored: they would hide ordinary text.
func AddSecret(values ...string) {
	knownMu.Lock()
	defer knownMu.Unlock()
	for _, v := range values {
		if len(v) >= 8 && !slices.Contains(known, v) {
			known = append(known, v)
		}
	}
}

func knownSecrets() []string {
	knownMu.RLock()
	defer knownMu.RUnlock()
	return known
}

// Text is Value for text under no key: a message, a path, an error.
func Text(s string) string { return Value("", s) }

// Strings applies Text to every string v points to (struct fields, slice and array elements,
// map values, through pointers and interfaces): one pass over a whole output document, so a
// field added later is redacted too.
func Strings(v any) {
	redactValue(reflect.ValueOf(v), map[uintptr]bool{})
}

// redactValue walks v; seen holds the pointers visited (a cycle or a shared value is done once).
func redactValue(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Pointer {
				if seen[v.Pointer()] {
					return
				}
				seen[v.Pointer()] = true
			}
			if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.String {
				if v.CanSet() {
					v.Set(reflect.ValueOf(Text(v.Elem().String())).Convert(v.Elem().Type()))
				}
				return
			}
			redactValue(v.Elem(), seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				redactValue(v.Field(i), seen)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			redactValue(v.Index(i), seen)
		}
	case reflect.Map:
		if v.Type().Elem().Kind() == reflect.String {
			for _, k := range v.MapKeys() {
				v.SetMapIndex(k, reflect.ValueOf(Text(v.MapIndex(k).String())).Convert(v.Type().Elem()))
			}
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(Text(v.String()))
		}
	}
}
