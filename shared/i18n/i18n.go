// Package i18n is the one message catalogue of the pages and the e-mails,
// in English and Dutch: the phrases both say (the authority in words, dates)
// and every text of the pages. Messages are flat keys in one JSON file per
// language, parsed once; a key missing in a language is a start-up error
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
)

//go:embed messages/*.json
var files embed.FS

// Languages are the languages of the service, the first the fallback.
var Languages = []string{"en", "nl"}

// Fallback is the language of a reader whose language is not supported.
const Fallback = "en"

var catalogue = mustLoad()

func mustLoad() map[string]map[string]string {
	c := map[string]map[string]string{}
	for _, lang := range Languages {
		raw, err := files.ReadFile("messages/" + lang + ".json")
		if err != nil {
			panic(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(raw, &m); err != nil {
			panic(fmt.Sprintf("i18n: messages/%s.json: %v", lang, err))
		}
		// The console's messages live in their own file per language
		// (messages/console.<lang>.json), merged here; a key in both is
		// a start-up error.
		if raw, err := files.ReadFile("messages/console." + lang + ".json"); err == nil {
			more := map[string]string{}
			if err := json.Unmarshal(raw, &more); err != nil {
				panic(fmt.Sprintf("i18n: messages/console.%s.json: %v", lang, err))
			}
			for k, v := range more {
				if _, dup := m[k]; dup {
					panic(fmt.Sprintf("i18n: %s is in messages/%s.json and messages/console.%s.json", k, lang, lang))
				}
				m[k] = v
			}
		}
		c[lang] = m
	}
	return c
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
	m := catalogue[Supported(lang)]
	if m == nil {
		m = catalogue[Fallback]
	}
	msg, ok := m[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

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
