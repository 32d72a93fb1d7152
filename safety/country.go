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
	// more of US
	"austin": "US", "phoenix": "US", "charlotte": "US", "columbus": "US", "indianapolis": "US", "san jose": "US", "jacksonville": "US", "fort worth": "US", "baltimore": "US", "milwaukee": "US", "kansas city": "US", "st louis": "US", "st. louis": "US", "saint louis": "US", "pittsburgh": "US", "cincinnati": "US", "cleveland": "US", "orlando": "US", "tampa": "US", "sacramento": "US", "salt lake city": "US", "new orleans": "US", "honolulu": "US", "anchorage": "US", "raleigh": "US", "brooklyn": "US", "queens": "US", "the bronx": "US", "manhattan": "US", "washington dc": "US", "washington d.c.": "US", "dc": "US", "alabama": "US", "alaska": "US", "arkansas": "US", "connecticut": "US", "delaware": "US", "hawaii": "US", "idaho": "US", "indiana": "US", "iowa": "US", "kansas": "US", "kentucky": "US", "louisiana": "US", "maine": "US", "maryland": "US", "massachusetts": "US", "minnesota": "US", "mississippi": "US", "missouri": "US", "montana": "US", "nebraska": "US", "nevada": "US", "new hampshire": "US", "new mexico": "US", "north carolina": "US", "north dakota": "US", "oklahoma": "US", "rhode island": "US", "south carolina": "US", "south dakota": "US", "tennessee": "US", "utah": "US", "vermont": "US", "west virginia": "US", "wisconsin": "US", "wyoming": "US", "new york state": "US", "upstate new york": "US", "the midwest": "US", "the bay area": "US",
	// more of CA
	"manitoba": "CA", "saskatchewan": "CA", "new brunswick": "CA", "newfoundland": "CA", "prince edward island": "CA", "pei": "CA", "regina": "CA", "saskatoon": "CA", "mississauga": "CA", "brampton": "CA", "laval": "CA", "quebec city": "CA", "québec": "CA", "kitchener": "CA", "waterloo ontario": "CA", "london ontario": "CA", "hamilton ontario": "CA", "victoria bc": "CA", "surrey bc": "CA", "yukon": "CA", "nunavut": "CA", "the northwest territories": "CA",
	// more of GB
	"nottingham": "GB", "leicester": "GB", "coventry": "GB", "bradford": "GB", "brighton": "GB", "oxford": "GB", "cambridge": "GB", "york": "GB", "southampton": "GB", "portsmouth": "GB", "plymouth": "GB", "aberdeen": "GB", "dundee": "GB", "swansea": "GB", "derry": "GB", "norwich": "GB", "exeter": "GB", "kent": "GB", "yorkshire": "GB", "cornwall": "GB", "devon": "GB", "essex": "GB", "lancashire": "GB", "the midlands": "GB", "hull": "GB", "sunderland": "GB", "stoke": "GB",
	// more of IE
	"waterford": "IE", "kilkenny": "IE", "sligo": "IE", "wexford": "IE", "kerry": "IE", "donegal": "IE", "galway city": "IE", "county cork": "IE", "county dublin": "IE", "co. cork": "IE", "co. dublin": "IE",
	// more of AU
	"darwin": "AU", "wollongong": "AU", "geelong": "AU", "cairns": "AU", "townsville": "AU", "sunshine coast": "AU", "western australia": "AU", "south australia": "AU", "the northern territory": "AU", "victoria australia": "AU", "newcastle nsw": "AU",
	// more of NZ
	"tauranga": "NZ", "napier": "NZ", "palmerston north": "NZ", "queenstown": "NZ", "rotorua": "NZ", "whangarei": "NZ", "invercargill": "NZ",
	// more of IN
	"lucknow": "IN", "kanpur": "IN", "nagpur": "IN", "indore": "IN", "bhopal": "IN", "patna": "IN", "surat": "IN", "chandigarh": "IN", "goa": "IN", "noida": "IN", "gurgaon": "IN", "gurugram": "IN", "mysore": "IN", "mysuru": "IN", "kochi": "IN", "coimbatore": "IN", "visakhapatnam": "IN", "tamil nadu": "IN", "karnataka": "IN", "maharashtra": "IN", "gujarat": "IN", "rajasthan": "IN", "uttar pradesh": "IN", "west bengal": "IN", "bihar": "IN", "telangana": "IN", "calcutta": "IN", "bombay": "IN", "madras": "IN",
	// more of DE
	"bremen": "DE", "hanover": "DE", "hannover": "DE", "nuremberg": "DE", "nürnberg": "DE", "nurnberg": "DE", "bonn": "DE", "essen": "DE", "dortmund": "DE", "bavaria": "DE", "bayern": "DE", "mannheim": "DE", "karlsruhe": "DE", "freiburg": "DE", "heidelberg": "DE", "münster": "DE", "munster germany": "DE",
	// more of FR
	"montpellier": "FR", "rennes": "FR", "reims": "FR", "grenoble": "FR", "dijon": "FR", "brittany": "FR", "bretagne": "FR", "normandy": "FR", "normandie": "FR", "provence": "FR", "nice france": "FR", "corsica": "FR", "la réunion": "FR", "reunion island": "FR",
	// more of ES
	"zaragoza": "ES", "palma": "ES", "mallorca": "ES", "majorca": "ES", "granada": "ES", "alicante": "ES", "murcia": "ES", "valladolid": "ES", "vigo": "ES", "catalonia": "ES", "cataluña": "ES", "catalunya": "ES", "andalusia": "ES", "andalucía": "ES", "tenerife": "ES", "the canary islands": "ES", "canary islands": "ES", "ibiza": "ES", "gran canaria": "ES",
	// more of NL
	"groningen": "NL", "haarlem": "NL", "leiden": "NL", "delft": "NL", "maastricht": "NL", "nijmegen": "NL", "tilburg": "NL", "arnhem": "NL", "breda": "NL", "den haag": "NL",
	// more of BR
	"salvador": "BR", "fortaleza": "BR", "curitiba": "BR", "manaus": "BR", "belém": "BR", "belem": "BR", "goiânia": "BR", "goiania": "BR", "florianópolis": "BR", "florianopolis": "BR", "campinas": "BR", "minas gerais": "BR", "bahia": "BR", "rio": "BR",
	// more of SG
	"sg": "SG", "jurong": "SG", "tampines": "SG", "punggol": "SG", "sengkang": "SG",
	// more of JP
	"hiroshima": "JP", "sendai": "JP", "kawasaki": "JP", "chiba": "JP", "saitama": "JP", "okinawa": "JP", "nara": "JP", "hokkaido": "JP", "京都": "JP", "名古屋": "JP", "札幌": "JP", "福岡": "JP", "横浜": "JP",
}

// demonyms are read after "I'm" ("I'm Australian").
var demonyms = map[string]string{
	"american": "US", "canadian": "CA", "british": "GB", "english": "GB", "scottish": "GB", "welsh": "GB", "irish": "IE",
	"australian": "AU", "aussie": "AU", "kiwi": "NZ", "new zealander": "NZ", "indian": "IN", "german": "DE", "french": "FR",
	"spanish": "ES", "dutch": "NL", "brazilian": "BR", "singaporean": "SG", "japanese": "JP",
	"northern irish": "GB", "brit": "GB", "londoner": "GB", "texan": "US", "californian": "US", "new yorker": "US",
	"floridian": "US", "canuck": "CA", "quebecer": "CA", "quebecois": "CA", "québécois": "CA", "parisian": "FR",
	"bavarian": "DE", "catalan": "ES", "brasileiro": "BR", "brasileira": "BR",
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
	return regexp.MustCompile(`(?i)(?:^|[^\pL])(?:i ?a?m in|i'm in|im in|i am in|i live in|i'm living in|im living in|living in|live in|based in|here in|i'm from|im from|i am from|from|moved to|back in|near|outside|outside of|currently in|over here in|down here in|up here in|staying in|visiting|studying in|working in|stuck in|i grew up in|grew up in)\s+(` + strings.Join(names, "|") + `)(?:[^\pL]|$)`)
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
