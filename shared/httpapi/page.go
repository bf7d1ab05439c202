package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// pageRequest reads the paging parameters of a search: query,
// pageNumber (default 0), pageSize (default 10, at most
// domain.MaxPageSize), sort (defaultSort unless given; one of sorts) and
// sortDirection (ASC or DESC, default ASC). A bad value is a 400, never
// silently replaced.
func pageRequest(r *http.Request, defaultSort string, sorts ...string) (domain.PageRequest, error) {
	q := r.URL.Query()
	req := domain.PageRequest{Query: strings.TrimSpace(q.Get("query")), Size: domain.DefaultPageSize, Sort: defaultSort}
	if v := q.Get("pageNumber"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return req, domain.Invalidf("pageNumber must be an integer of at least 0")
		}
		req.Number = n
	}
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > domain.MaxPageSize {
			return req, domain.Invalidf("pageSize must be an integer from 1 to %d", domain.MaxPageSize)
		}
		req.Size = n
	}
	if v := q.Get("sort"); v != "" {
		if !slices.Contains(sorts, v) && v != defaultSort {
			return req, domain.Invalidf("sort must be one of %s", strings.Join(append([]string{defaultSort}, sorts...), ", "))
		}
		req.Sort = v
	}
	switch strings.ToUpper(q.Get("sortDirection")) {
	case "", "ASC":
	case "DESC":
		req.Descending = true
	default:
		return req, domain.Invalidf("sortDirection must be ASC or DESC")
	}
	return req, nil
}

// PageJSON is the page envelope of a search, as Spring Data writes it.
type PageJSON[T any] struct {
	Content          []T          `json:"content"`
	Pageable         PageableJSON `json:"pageable"`
	TotalPages       int          `json:"totalPages"`
	TotalElements    int64        `json:"totalElements"`
	Size             int          `json:"size"`
	Number           int          `json:"number"`
	NumberOfElements int          `json:"numberOfElements"`
	Sort             SortJSON     `json:"sort"`
	First            bool         `json:"first"`
	Last             bool         `json:"last"`
	Empty            bool         `json:"empty"`
}

// PageableJSON describes the page that was asked for.
type PageableJSON struct {
	Paged      bool     `json:"paged"`
	Unpaged    bool     `json:"unpaged"`
	PageNumber int      `json:"pageNumber"`
	PageSize   int      `json:"pageSize"`
	Offset     int64    `json:"offset"`
	Sort       SortJSON `json:"sort"`
}

// SortJSON says whether the content is sorted.
type SortJSON struct {
	Sorted   bool `json:"sorted"`
	Unsorted bool `json:"unsorted"`
	Empty    bool `json:"empty"`
}

// newPage wraps one page of content in the envelope.
func newPage[T any](content []T, req domain.PageRequest, total int64) PageJSON[T] {
	if content == nil {
		content = []T{}
	}
	sorted := SortJSON{Sorted: req.Sort != "", Unsorted: req.Sort == "", Empty: req.Sort == ""}
	size := max(req.Size, 1)
	pages := int((total + int64(size) - 1) / int64(size))
	return PageJSON[T]{
		Content:    content,
		Pageable:   PageableJSON{Paged: true, PageNumber: req.Number, PageSize: req.Size, Offset: int64(req.Offset()), Sort: sorted},
		TotalPages: pages, TotalElements: total, Size: req.Size, Number: req.Number, NumberOfElements: len(content),
		Sort: sorted, First: req.Number == 0, Last: req.Number >= pages-1, Empty: len(content) == 0,
	}
}
