// Package i18n is the one message catalogue of the pages and the e-mails,
// in English and Dutch: the phrases both say (the authority in words, dates)
// and every text of the pages. Messages are flat keys in one JSON file per
// language, parsed once; a message about a count has the language's plural
// forms (golang.org/x/text's CLDR rules); a key missing in a language is a start-up error
// (TestCatalogueComplete), so no page ever shows a key.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

//go:embed messages/*.json
var files embed.FS

// Languages are the languages of the service, the first the fallback.
var Languages = []string{"en", "nl"}

// Fallback is the language of a reader whose language is not supported.
const Fallback = "en"

var catalogue, plurals = mustLoad()

// A message is a string, or for a count an object of CLDR plural forms
// ({"one": "%d member", "other": "%d members"}): its first argument picks
// the form by the language's plural rules (golang.org/x/text/feature/plural).
func mustLoad() (map[string]map[string]string, *catalog.Builder) {
	c := map[string]map[string]string{}
	plurals := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, lang := range Languages {
		m := map[string]string{}
		// The console's messages live in their own file per language
		// (messages/console.<lang>.json), merged here; a key in both is
		// a start-up error.
		for _, file := range []string{"messages/" + lang + ".json", "messages/console." + lang + ".json"} {
			raw, err := files.ReadFile(file)
			if err != nil {
				panic(err)
			}
			entries := map[string]json.RawMessage{}
			if err := json.Unmarshal(raw, &entries); err != nil {
				panic(fmt.Sprintf("i18n: %s: %v", file, err))
			}
			for k, v := range entries {
				if _, dup := m[k]; dup {
					panic(fmt.Sprintf("i18n: %s is twice in the messages of %s", k, lang))
				}
				var text string
				if err := json.Unmarshal(v, &text); err == nil {
					m[k] = text
					continue
				}
				var forms map[string]string
				if err := json.Unmarshal(v, &forms); err != nil || forms["other"] == "" {
					panic(fmt.Sprintf("i18n: %s in %s is neither a text nor plural forms with \"other\"", k, file))
				}
				var cases []any
				for _, form := range []string{"zero", "one", "two", "few", "many", "other"} {
					if f, ok := forms[form]; ok {
						cases = append(cases, form, f)
					}
				}
				if err := plurals.Set(language.Make(lang), k, plural.Selectf(1, "", cases...)); err != nil {
					panic(fmt.Sprintf("i18n: %s in %s: %v", k, file, err))
				}
				pluralKeys[k] = true
				m[k] = forms["other"] // a key of the language, and what Keys compares
			}
		}
		c[lang] = m
	}
	return c, plurals
}

// Supported returns lang when it is a supported language ("nl", "NL",
// "nl-BE" → "nl"), else "".
func Supported(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	for _, l := range Languages {
		if l == lang {
			return l
		}
	}
	return ""
}

// FromAcceptLanguage picks the supported language a browser prefers most
// (the highest q, the first of equals), the fallback when none is supported.
func FromAcceptLanguage(header string) string {
	best, bestQ := Fallback, 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if lang := Supported(tag); lang != "" && q > bestQ {
			best, bestQ = lang, q
		}
	}
	return best
}

// T is the message key in lang (the fallback language when lang is not
// supported) with args filled in as by fmt.Sprintf.
func T(lang, key string, args ...any) string {
	lang = Supported(lang)
	if lang == "" {
		lang = Fallback
	}
	m := catalogue[lang]
	msg, ok := m[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return msg
	}
	if p, ok := printers[lang]; ok && pluralKeys[key] {
		return p.Sprintf(key, args...)
	}
	return fmt.Sprintf(msg, args...)
}

// printers format the plural messages, one per language.
var printers = func() map[string]*message.Printer {
	out := map[string]*message.Printer{}
	for _, lang := range Languages {
		out[lang] = message.NewPrinter(language.Make(lang), message.Catalog(plurals))
	}
	return out
}()

// pluralKeys are the keys whose messages have plural forms.
var pluralKeys = map[string]bool{}

// Authority is the authority a membership grants, in words ("as a guest").
func Authority(lang, authority string) string {
	return T(lang, "authority."+strings.ToUpper(authority))
}

// Date writes a date the way readers of lang expect ("2 January 2027",
// "2 januari 2027"), in UTC, the zone the service stores dates in.
func Date(lang string, t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%d %s %d", t.Day(), T(lang, "month."+fmt.Sprint(int(t.Month()))), t.Year())
}

// Keys lists the keys of lang, sorted (tests compare the languages).
func Keys(lang string) []string {
	var keys []string
	for k := range catalogue[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
