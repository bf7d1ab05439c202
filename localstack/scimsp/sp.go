package scimsp

import (
	"net/http"
	"sync"
	"time"

	elimity "github.com/elimity-com/scim"
)

// Options configure authentication: exactly one of Basic (user and
// password) or BearerToken.
type Options struct {
	BasicUser     string
	BasicPassword string
	BearerToken   string
	// Filters limits the list filters the SP accepts, to test the service
	// against SPs that support little: FiltersAll (the default),
	// FiltersNoExternalID (400 invalidFilter on externalId) or FiltersNone
	// (400 invalidFilter on every filter, and /ServiceProviderConfig says
	// filter.supported false).
	Filters FilterSupport
	// NoPatch refuses PATCH on Groups with 501 (and says so in
	// /ServiceProviderConfig).
	NoPatch bool
	// PatchNoContent answers a successful group PATCH with 204 No Content,
	// as many SPs do (RFC 7644 section 3.5.2 lets an SP choose), instead of
	// the whole group: the benchmarks use it, so that marshalling a group of
	// thousands of members per request (work an SP does on its own machines)
	// does not take the cores the service is measured on.
	PatchNoContent bool
	// Unreliable makes the SP behave as some do in the field (see
	// unreliable.go); the zero value is a well-behaved SP.
	Unreliable Unreliable
}

// FilterSupport is which list filters an SP accepts.
type FilterSupport int

const (
	FiltersAll FilterSupport = iota
	FiltersNoExternalID
	FiltersNone
)

// SP is an in-memory SCIM Service Provider. It is safe for concurrent use.
type SP struct {
	auth    authenticator
	opts    Options
	handler http.Handler

	saveMu sync.Mutex // serialises Save, which takes mu only to copy the state
	mu     sync.Mutex // guards users and groups together: deleting a user edits groups
	users  map[string]*userRecord
	groups map[string]*groupRecord
	now    func() time.Time

	log requestLog

	loss lossDice // decides which answers Unreliable.LoseAnswers loses
}

// New returns an SP. It panics when Options do not configure exactly one
// authentication method: that is a programming error in the caller.
func New(opts Options) *SP {
	auth, err := newAuthenticator(opts)
	if err != nil {
		panic("scimsp: " + err.Error())
	}
	sp := &SP{
		auth:   auth,
		opts:   opts,
		users:  map[string]*userRecord{},
		groups: map[string]*groupRecord{},
		now:    func() time.Time { return time.Now().UTC().Truncate(time.Second) },
	}
	server, err := elimity.NewServer(&elimity.ServerArgs{
		ServiceProviderConfig: serviceProviderConfig(auth, opts),
		ResourceTypes:         resourceTypes(sp),
	})
	if err != nil {
		panic("scimsp: " + err.Error()) // only on missing arguments, which are constant here
	}
	sp.loss = newLossDice(opts.Unreliable)
	sp.handler = sp.routes(server)
	return sp
}

// Handler serves the SCIM endpoints under /v1 and GET /state. It may be
// mounted below a prefix with http.StripPrefix; Location headers keep it.
func (sp *SP) Handler() http.Handler { return sp.handler }

// Reset forgets all users, groups and recorded requests. Ids are not
// reused afterwards, so an id remembered from before never finds a new
// resource.
func (sp *SP) Reset() {
	sp.mu.Lock()
	sp.users = map[string]*userRecord{}
	sp.groups = map[string]*groupRecord{}
	sp.mu.Unlock()
	sp.log.reset()
}

// Requests returns every SCIM request received so far, oldest first.
func (sp *SP) Requests() []RecordedRequest { return sp.log.snapshot() }
