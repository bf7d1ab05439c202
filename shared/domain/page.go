package domain

// Paging defaults and bounds of search operations (spec 8). The spec gives
// no maximum page size; 100 keeps every page a bounded number of DynamoDB
// requests (one Query plus one BatchGetItem of 100 keys).
const (
	DefaultPageSize = 10
	MaxPageSize     = 100
)

// PageRequest is what a search asks for: the spec's query, pageNumber
// (0-based), pageSize, sort and sortDirection parameters.
type PageRequest struct {
	Query      string
	Number     int
	Size       int
	Sort       string
	Descending bool
	// After is a page token (the Next of the page before) of a search that
	// walks by token: the page starts right after it, whatever Number
	// says (Number then only labels the page).
	After string
}

// Offset is the index of the page's first element.
func (p PageRequest) Offset() int { return p.Number * p.Size }

// Page is one page of a search with the number of all matches.
type Page[T any] struct {
	Items []T
	Total int64
	// Next is the token of the page after this one (PageRequest.After) in
	// a search that walks by token; "" when nothing follows or the search
	// does not.
	Next string
}
