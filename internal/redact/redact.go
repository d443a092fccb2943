// Package redact is the one redaction every output path uses: whatever hudiscope prints,
// exports or logs that may carry a configured value, a path or an error message goes through
// Value (or Text), so a credential never reaches a terminal, a report or a log.
package redact

import (
	"encoding/json"
	"regexp"
	"strings"

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
	quotedKV  = regexp.MustCompile(`([A-Za-z0-9_.\-]+)("?\s*[=:]\s*")((?:[^"\\]|\\.)*)"`)
	quotedKV1 = regexp.MustCompile(`([A-Za-z0-9_.\-]+)('?\s*[=:]\s*')([^']*)'`)
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
	value = bearer.ReplaceAllString(value, "${1}"+Marker)
	value = storePass.ReplaceAllString(value, "${1}"+Marker)
	if strings.ContainsAny(value, "=:") {
		value = embeddedKV.ReplaceAllStringFunc(value, func(m string) string {
			if k, _, _ := strings.Cut(m, "="); IsSecret(k) {
				return k + "=" + Marker
			}
			return m
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
	return value
}

// Text is Value for text under no key: a message, a path, an error.
func Text(s string) string { return Value("", s) }
