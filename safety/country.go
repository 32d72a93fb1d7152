package safety

import (
	"regexp"
	"sort"
	"strings"
)

// placeNames maps lowercase country names, nations and large cities to ISO
// codes. Only places said after a location word ("in", "from", "live in")
// count, so "a film about Japan" is not a location.
var placeNames = map[string]string{
	// United States
	"the us": "US", "the usa": "US", "usa": "US", "the united states": "US", "united states": "US", "america": "US", "the states": "US",
	"new york": "US", "nyc": "US", "los angeles": "US", "chicago": "US", "houston": "US", "philadelphia": "US",
	"san antonio": "US", "san diego": "US", "dallas": "US", "seattle": "US", "boston": "US", "denver": "US", "atlanta": "US",
	"miami": "US", "portland": "US", "san francisco": "US", "detroit": "US", "minneapolis": "US", "nashville": "US", "las vegas": "US",
	"texas": "US", "california": "US", "florida": "US", "ohio": "US", "michigan": "US", "virginia": "US", "oregon": "US",
	"arizona": "US", "colorado": "US", "new jersey": "US", "pennsylvania": "US", "illinois": "US", "washington state": "US",
	// Canada
	"canada": "CA", "toronto": "CA", "montreal": "CA", "vancouver": "CA", "calgary": "CA", "ottawa": "CA", "edmonton": "CA",
	"winnipeg": "CA", "quebec": "CA", "ontario": "CA", "british columbia": "CA", "alberta": "CA", "nova scotia": "CA", "halifax": "CA",
	// United Kingdom
	"the uk": "GB", "uk": "GB", "the united kingdom": "GB", "united kingdom": "GB", "britain": "GB", "great britain": "GB", "england": "GB",
	"scotland": "GB", "wales": "GB", "northern ireland": "GB", "london": "GB", "manchester": "GB", "birmingham": "GB", "glasgow": "GB",
	"edinburgh": "GB", "liverpool": "GB", "leeds": "GB", "bristol": "GB", "cardiff": "GB", "belfast": "GB", "sheffield": "GB", "newcastle": "GB",
	// Ireland
	"ireland": "IE", "the republic of ireland": "IE", "dublin": "IE", "cork": "IE", "galway": "IE", "limerick": "IE",
	// Australia
	"australia": "AU", "sydney": "AU", "melbourne": "AU", "brisbane": "AU", "perth": "AU", "adelaide": "AU", "canberra": "AU",
	"hobart": "AU", "queensland": "AU", "tasmania": "AU", "new south wales": "AU", "nsw": "AU", "gold coast": "AU",
	// New Zealand
	"new zealand": "NZ", "nz": "NZ", "aotearoa": "NZ", "auckland": "NZ", "wellington": "NZ", "christchurch": "NZ", "dunedin": "NZ", "hamilton nz": "NZ",
	// India
	"india": "IN", "mumbai": "IN", "delhi": "IN", "new delhi": "IN", "bangalore": "IN", "bengaluru": "IN", "chennai": "IN", "kolkata": "IN",
	"hyderabad": "IN", "pune": "IN", "ahmedabad": "IN", "jaipur": "IN", "kerala": "IN",
	// Germany
	"germany": "DE", "deutschland": "DE", "berlin": "DE", "munich": "DE", "münchen": "DE", "hamburg": "DE", "cologne": "DE", "köln": "DE",
	"frankfurt": "DE", "stuttgart": "DE", "düsseldorf": "DE", "dusseldorf": "DE", "leipzig": "DE", "dresden": "DE",
	// France
	"france": "FR", "paris": "FR", "marseille": "FR", "lyon": "FR", "toulouse": "FR", "nantes": "FR", "bordeaux": "FR", "lille": "FR", "strasbourg": "FR",
	// Spain
	"spain": "ES", "españa": "ES", "espana": "ES", "madrid": "ES", "barcelona": "ES", "valencia": "ES", "seville": "ES", "sevilla": "ES", "malaga": "ES", "málaga": "ES", "bilbao": "ES",
	// Netherlands
	"the netherlands": "NL", "netherlands": "NL", "holland": "NL", "nederland": "NL", "amsterdam": "NL", "rotterdam": "NL", "the hague": "NL", "utrecht": "NL", "eindhoven": "NL",
	// Brazil
	"brazil": "BR", "brasil": "BR", "são paulo": "BR", "sao paulo": "BR", "rio de janeiro": "BR", "brasília": "BR", "brasilia": "BR", "belo horizonte": "BR", "recife": "BR", "porto alegre": "BR",
	// Singapore
	"singapore": "SG",
	// Japan
	"japan": "JP", "tokyo": "JP", "osaka": "JP", "kyoto": "JP", "yokohama": "JP", "nagoya": "JP", "sapporo": "JP", "fukuoka": "JP", "kobe": "JP", "日本": "JP", "東京": "JP", "大阪": "JP",
}

// demonyms are read after "I'm" ("I'm Australian").
var demonyms = map[string]string{
	"american": "US", "canadian": "CA", "british": "GB", "english": "GB", "scottish": "GB", "welsh": "GB", "irish": "IE",
	"australian": "AU", "aussie": "AU", "kiwi": "NZ", "new zealander": "NZ", "indian": "IN", "german": "DE", "french": "FR",
	"spanish": "ES", "dutch": "NL", "brazilian": "BR", "singaporean": "SG", "japanese": "JP",
}

var (
	placeRe   = buildPlaceRe()
	demonymRe = buildDemonymRe()
)

func buildPlaceRe() *regexp.Regexp {
	names := make([]string, 0, len(placeNames))
	for n := range placeNames {
		names = append(names, regexp.QuoteMeta(n))
	}
	// Longest first so "new south wales" wins over "wales".
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	return regexp.MustCompile(`(?i)(?:^|[^\pL])(?:i ?a?m in|i'm in|im in|i am in|i live in|i'm living in|im living in|living in|live in|based in|here in|i'm from|im from|i am from|from|moved to|back in|near|outside|outside of|currently in|over here in|down here in|up here in)\s+(` + strings.Join(names, "|") + `)(?:[^\pL]|$)`)
}

func buildDemonymRe() *regexp.Regexp {
	names := make([]string, 0, len(demonyms))
	for n := range demonyms {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	return regexp.MustCompile(`(?i)(?:^|[^\pL])(?:i'm|im|i am)\s+(?:an?\s+)?(` + strings.Join(names, "|") + `)(?:[^\pL]|$)`)
}

// localeOnlyLanguage maps a language-only locale to a country where the
// language points at one country clearly enough.
var localeOnlyLanguage = map[string]string{"ja": "JP"}

// DetectCountry returns the ISO country code for the person: first from
// what they said ("I'm in Melbourne" -> AU), then from the platform locale
// ("en-GB" -> GB, "pt_BR" -> BR). ok is false when neither says.
func DetectCountry(text, locale string) (country string, ok bool) {
	if text != "" {
		t := strings.ReplaceAll(text, "’", "'")
		if m := placeRe.FindStringSubmatch(t); m != nil {
			if c, ok := placeNames[strings.ToLower(m[1])]; ok {
				return c, true
			}
		}
		if m := demonymRe.FindStringSubmatch(t); m != nil {
			if c, ok := demonyms[strings.ToLower(m[1])]; ok {
				return c, true
			}
		}
	}
	return countryFromLocale(locale)
}

// countryFromLocale reads the region of a BCP 47 or POSIX locale.
func countryFromLocale(locale string) (string, bool) {
	l := strings.TrimSpace(locale)
	if i := strings.IndexAny(l, ".@"); i >= 0 {
		l = l[:i]
	}
	if l == "" {
		return "", false
	}
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' })
	for _, p := range parts[1:] {
		if len(p) == 2 && isAlpha(p) {
			c := strings.ToUpper(p)
			if c == "UK" {
				c = "GB"
			}
			return c, true
		}
	}
	if c, ok := localeOnlyLanguage[strings.ToLower(parts[0])]; ok {
		return c, true
	}
	return "", false
}

func isAlpha(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
