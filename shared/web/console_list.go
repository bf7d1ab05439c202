package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// listState is a list's search, sort and page, all in the query string so
// that every list view is a bookmark: q, sort, dir=desc, page (from 1).
// Lists whose search names people (people, audit) are Private: their
// search is posted, never put in an address (no personal data in URLs,
// logs or history), and their sort and page controls are buttons of a
// form that posts the search again.
type listState struct {
	Private bool
	// TableID is the id of the list's table; SearchLabel labels its query
	// field (the searchfield and resultstable templates).
	TableID, SearchLabel string
	// SearchError says, next to the query field, why the query cannot be
	// answered (a search naming too many people).
	SearchError string
	Query       string
	Sort        string
	Desc        bool
	Page        int // 1-based
	Size        int
	path        string
	// extra are the list's own filters, kept in every link.
	extra url.Values
}

// listStateOf reads the list's state; sort must be one of sorts (the first
// is the default).
func listStateOf(r *http.Request, sorts []string) listState {
	_ = r.ParseForm()
	q := r.Form
	s := listState{Query: strings.TrimSpace(q.Get("q")), Sort: sorts[0], Desc: q.Get("dir") == "desc", Page: 1, Size: 25, path: r.URL.Path}
	sort := q.Get("sort")
	if order := q.Get("order"); order != "" {
		// A sort button of a private list: "field" or "field.desc".
		field, dir, _ := strings.Cut(order, ".")
		sort, s.Desc = field, dir == "desc"
	}
	for _, v := range sorts {
		if sort == v {
			s.Sort = v
		}
	}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 && n < 100000 {
		s.Page = n
	}
	return s
}

// Dir is "desc" for a descending list, else "".
func (s listState) Dir() string {
	if s.Desc {
		return "desc"
	}
	return ""
}

// Path is the list's page, where a private list posts its form.
func (s listState) Path() string { return s.path }

// Extra are the list's own filters, as hidden fields of a private list's
// form.
func (s listState) Extra() url.Values { return s.extra }

func (s listState) request() domain.PageRequest {
	return domain.PageRequest{Query: s.Query, Number: s.Page - 1, Size: s.Size, Sort: s.Sort, Descending: s.Desc}
}

func (s listState) url(page int, sort string, desc bool) string {
	q := url.Values{}
	for k, vs := range s.extra {
		for _, v := range vs {
			if v != "" {
				q.Add(k, v)
			}
		}
	}
	if s.Query != "" {
		q.Set("q", s.Query)
	}
	q.Set("sort", sort)
	if desc {
		q.Set("dir", "desc")
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	return s.path + "?" + q.Encode()
}

// sortHeader is a column heading that sorts by its field: a link that
// turns the direction when the list is already sorted by it.
type sortHeader struct {
	Label, Href string
	// Order is the value of the sort button of a private list.
	Order   string
	Private bool
	// AriaSort is ascending/descending on the sorted column, else "".
	AriaSort string
}

func (s listState) header(lang, key, field string) sortHeader {
	h := sortHeader{Label: i18n.T(lang, key), Href: s.url(1, field, false), Order: field, Private: s.Private}
	if s.Sort == field {
		h.AriaSort = "ascending"
		h.Href = s.url(1, field, !s.Desc)
		if !s.Desc {
			h.Order = field + ".desc"
		}
		if s.Desc {
			h.AriaSort = "descending"
		}
	}
	return h
}

// pager is the list's page links.
type pager struct {
	Summary    string
	Prev, Next string
	// PrevPage and NextPage are the page buttons' values of a private
	// list; 0 when there is no such page.
	PrevPage, NextPage int
	Private            bool
}

func (s listState) pager(lang string, total int64) pager {
	pages := int((total + int64(s.Size) - 1) / int64(s.Size))
	pg := pager{Summary: i18n.T(lang, "console.list.summary", total, s.Page, max(pages, 1)), Private: s.Private}
	if s.Page > 1 {
		pg.Prev, pg.PrevPage = s.url(s.Page-1, s.Sort, s.Desc), s.Page-1
	}
	if s.Page < pages {
		pg.Next, pg.NextPage = s.url(s.Page+1, s.Sort, s.Desc), s.Page+1
	}
	return pg
}
