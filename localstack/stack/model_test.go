package stack

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/service"
)

// model is what the service and the SP must hold after the operations
// that succeeded: roles by id (name), and per person the roles held and
// whether as a guest, and the attributes last asserted.
type model struct {
	mu      sync.Mutex
	roles   map[int64]string
	holds   map[int]map[int64]bool // person -> role -> guest
	given   map[int]string
	deleted map[int64]bool
}

// modelRun is one seeded run of random operations against the local stack.
type modelRun struct {
	t      *testing.T
	s      *Stack
	sp     *scimsp.SP
	m      *model
	admin  *auth.Principal
	seed   uint64
	people int
}

func (r *modelRun) person(p int) auth.Person {
	r.m.mu.Lock()
	given := r.m.given[p]
	r.m.mu.Unlock()
	email := fmt.Sprintf("person%02d@example.org", p)
	// Three digits: the search by family name matches word prefixes, and
	// "Fam10" would find "Fam100" at a larger scale.
	return auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email, Email: email, GivenName: given,
		FamilyName: fmt.Sprintf("Fam%03d", p), Name: given + fmt.Sprintf(" Fam%03d", p)}
}

// The model-based test: a seeded random mix of role creations, renames
// (also in case only) and deletions, acceptances as guest or inviter,
// removals and sign-ins with new attributes, first one at a time, then from
// several workers at once (one for the roles, the others each for people of
// their own), against the local stack with an SP whose PATCH add is not
// idempotent and which loses some answers. After the queue has drained,
// every read and listing equals the model, and the SP holds exactly the
// users, groups and members the service says. MODEL_SEED repeats a run,
// MODEL_SCALE multiplies the operations: 1 (about 140 operations; 60 to
// 165 s on 2 cores at a load average of 25 to 40) in make test, more in
// `make test-model`.
func TestModelAgreesAfterRandomOperations(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("MODEL_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("MODEL_SEED=%q", v)
		}
		seed = n
	}
	scale := envInt(t, "MODEL_SCALE", 1)
	t.Logf("MODEL_SEED=%d MODEL_SCALE=%d", seed, scale)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("repeat with MODEL_SEED=%d MODEL_SCALE=%d", seed, scale)
		}
	})
	t.Setenv("LOG_LEVEL", "error")

	sp := scimsp.New(scimsp.Options{BearerToken: "model-token",
		Unreliable: scimsp.Unreliable{PatchAddRepeats: true, LoseAnswers: 0.1, Seed: seed}})
	srv := httptest.NewServer(sp.Handler())
	t.Cleanup(srv.Close)
	t.Setenv("SAMPLE_SP_TOKEN_MODEL", "model-token")
	clock := &testClock{}
	s := startTestStackWith(t, clock, fmt.Sprintf(`{"applications": [{"manageId": "app-model", "manageType": "SAML20_SP", "name": "Model",
	  "landingPage": "https://model.example.org", "provisionings": ["sp-model"]}],
	  "provisionings": [{"id": "sp-model", "baseUrl": %q, "membership": "PATCH", "ratePerSecond": 500,
	  "auth": {"method": "bearer", "token": "env:SAMPLE_SP_TOKEN_MODEL"}}]}`, srv.URL),
		Options{VisibilityTimeout: time.Second, PollInterval: 100 * time.Millisecond, MaxReceiveCount: 1000})
	s.App.Provisioner.Retry = provisioner.RetryPolicy{Base: 200 * time.Millisecond, Max: time.Second}

	r := &modelRun{t: t, s: s, sp: sp, seed: seed, people: 12 * scale,
		admin: &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "model-test"},
		m:     &model{roles: map[int64]string{}, holds: map[int]map[int64]bool{}, given: map[int]string{}, deleted: map[int64]bool{}}}
	for p := 0; p < r.people; p++ {
		r.m.holds[p], r.m.given[p] = map[int64]bool{}, "Given"
	}
	rnd := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < 3; i++ {
		r.createRole(rnd)
	}

	// One at a time.
	for i := 0; i < 60*scale; i++ {
		if rnd.IntN(5) == 0 {
			r.roleOp(rnd)
		} else {
			r.personOp(rnd, rnd.IntN(r.people))
		}
	}
	r.settleAndCompare("sequential")

	// At once: a worker for the roles, four for their own people.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rr := rand.New(rand.NewPCG(seed, 2))
		for i := 0; i < 12*scale; i++ {
			r.roleOp(rr)
		}
	}()
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rw := rand.New(rand.NewPCG(seed, uint64(10+w)))
			for i := 0; i < 15*scale; i++ {
				r.personOp(rw, w+workers*rw.IntN(r.people/workers))
			}
		}()
	}
	wg.Wait()
	r.settleAndCompare("concurrent")
}

func (r *modelRun) liveRoles() []int64 {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	var ids []int64
	for id := range r.m.roles {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func (r *modelRun) createRole(rnd *rand.Rand) {
	name := fmt.Sprintf("Model role %d", rnd.IntN(1_000_000))
	role, err := r.s.App.Service.CreateRole(context.Background(), r.admin, service.RoleInput{Name: name, OrganizationGUID: "org-model",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "app-model", ManageType: "SAML20_SP"}}})
	if domain.KindOf(err) == domain.KindConflict {
		return // the name was taken
	}
	if err != nil {
		r.t.Errorf("create role: %v", err)
		return
	}
	r.m.mu.Lock()
	r.m.roles[role.ID] = role.Name
	r.m.mu.Unlock()
}

// roleOp creates, renames (sometimes in case only) or deletes a role. A
// deletion that answers a conflict is retried, as a caller would, until it
// is done.
func (r *modelRun) roleOp(rnd *rand.Rand) {
	ctx := context.Background()
	roles := r.liveRoles()
	if len(roles) < 2 || rnd.IntN(4) == 0 {
		r.createRole(rnd)
		return
	}
	id := roles[rnd.IntN(len(roles))]
	if rnd.IntN(3) == 0 {
		for attempt := 0; ; attempt++ {
			err := r.s.App.Service.DeleteRole(ctx, r.admin, id)
			if err == nil || (domain.IsNotFound(err) && attempt > 0) {
				break
			}
			if domain.KindOf(err) != domain.KindConflict || attempt == 20 {
				r.t.Errorf("delete role %d (attempt %d): %v", id, attempt, err)
				return
			}
		}
		r.m.mu.Lock()
		delete(r.m.roles, id)
		r.m.deleted[id] = true
		r.m.mu.Unlock()
		return
	}
	r.m.mu.Lock()
	name := r.m.roles[id]
	r.m.mu.Unlock()
	if rnd.IntN(2) == 0 {
		name = strings.ToUpper(name)
		if name == r.m.roles[id] {
			name = strings.ToLower(name)
		}
	} else {
		name = fmt.Sprintf("Model role %d", rnd.IntN(1_000_000))
	}
	for attempt := 0; attempt < 5; attempt++ {
		_, err := r.s.App.Service.UpdateRole(ctx, r.admin, id, service.RoleInput{Name: name,
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "app-model", ManageType: "SAML20_SP"}}})
		if err == nil {
			r.m.mu.Lock()
			r.m.roles[id] = name
			r.m.mu.Unlock()
			return
		}
		if domain.KindOf(err) != domain.KindConflict {
			r.t.Errorf("rename role %d: %v", id, err)
			return
		}
	}
}

// personOp is an acceptance (as guest, or inviter without the guest role),
// a removal or a sign-in with a new given name, for person p.
func (r *modelRun) personOp(rnd *rand.Rand, p int) {
	ctx := context.Background()
	person := r.person(p)
	switch op := rnd.IntN(10); {
	case op < 5: // accept
		roles := r.liveRoles()
		if len(roles) == 0 {
			return
		}
		roleID := roles[rnd.IntN(len(roles))]
		r.m.mu.Lock()
		_, held := r.m.holds[p][roleID]
		r.m.mu.Unlock()
		if held {
			return
		}
		authority := domain.Guest
		if rnd.IntN(4) == 0 {
			authority = domain.Inviter
		}
		res, err := r.s.App.Service.Invite(ctx, r.admin, service.InvitationInput{IntendedAuthority: string(authority),
			SuppressSendingEmails: true, RoleIDs: []int64{roleID}, Invites: []string{person.Email}, ExpiryDate: ptr(time.Now().Add(24 * time.Hour))})
		if err != nil {
			return // the role was deleted meanwhile
		}
		link, err := url.Parse(res.URLs[0].InvitationURL)
		if err != nil {
			r.t.Error(err)
			return
		}
		if _, err := r.s.App.Service.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, link.Query().Get("hash"), 0); err != nil {
			return // the role, or the user, changed meanwhile: nothing was accepted
		}
		r.m.mu.Lock()
		r.m.holds[p][roleID] = authority == domain.Guest
		r.m.mu.Unlock()
	case op < 7: // remove one membership
		u, err := r.s.App.Store.GetUserBySub(ctx, person.Sub)
		if err != nil {
			return
		}
		urs, err := r.s.App.Store.ListUserRolesOfUser(ctx, u.ID)
		if err != nil || len(urs) == 0 {
			return
		}
		ur := urs[rnd.IntN(len(urs))]
		if _, err := r.s.App.Service.RemoveUserRole(ctx, r.admin, ur.ID, false); err != nil {
			return
		}
		r.m.mu.Lock()
		delete(r.m.holds[p], ur.RoleID)
		r.m.mu.Unlock()
	default: // sign in with a new given name
		r.m.mu.Lock()
		r.m.given[p] = fmt.Sprintf("Given%d", rnd.IntN(1000))
		r.m.mu.Unlock()
		person = r.person(p)
		u, err := r.s.App.Store.GetUserBySub(ctx, person.Sub)
		if err != nil {
			return // not a user: the next acceptance asserts the new name
		}
		if _, err := r.s.App.Service.PersonLoggedIn(ctx, u, person); err != nil {
			r.t.Errorf("sign-in of person %d: %v", p, err)
		}
	}
}

// want is what the model says: per person the live roles held (guest
// flag), and per live role its guests.
func (r *modelRun) want() (map[int]map[int64]bool, map[int64]map[int]bool) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	holds := map[int]map[int64]bool{}
	guests := map[int64]map[int]bool{}
	for id := range r.m.roles {
		guests[id] = map[int]bool{}
	}
	for p, roles := range r.m.holds {
		for id, guest := range roles {
			if _, live := r.m.roles[id]; !live {
				continue
			}
			if holds[p] == nil {
				holds[p] = map[int64]bool{}
			}
			holds[p][id] = guest
			if guest {
				guests[id][p] = true
			}
		}
	}
	return holds, guests
}

func (r *modelRun) settleAndCompare(phase string) {
	t := r.t
	ctx := context.Background()
	holds, guests := r.want()
	// The service's reads.
	var problems []string
	for p := 0; p < r.people; p++ {
		person := r.person(p)
		u, err := r.s.App.Store.GetUserBySub(ctx, person.Sub)
		if len(holds[p]) == 0 {
			if err == nil {
				problems = append(problems, fmt.Sprintf("person %d: a user without memberships", p))
			}
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("person %d: %v, want a user with %d roles", p, err, len(holds[p])))
			continue
		}
		urs, err := r.s.App.Store.ListUserRolesOfUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]bool{}
		for _, ur := range urs {
			got[ur.RoleID] = ur.Provisioned()
		}
		if fmt.Sprint(got) != fmt.Sprint(holds[p]) {
			problems = append(problems, fmt.Sprintf("person %d holds %v, want %v", p, got, holds[p]))
		}
		page, err := r.s.App.Service.SearchUsers(ctx, r.admin, domain.PageRequest{Query: person.FamilyName, Size: 10})
		if err != nil || page.Total != 1 {
			problems = append(problems, fmt.Sprintf("person %d: search finds %d, %v", p, page.Total, err))
		}
	}
	for _, id := range r.liveRoles() {
		role, err := r.s.App.Service.GetRole(ctx, r.admin, id)
		if err != nil {
			problems = append(problems, fmt.Sprintf("role %d: %v", id, err))
			continue
		}
		members := 0
		for _, roles := range holds {
			if _, ok := roles[id]; ok {
				members++
			}
		}
		r.m.mu.Lock()
		name := r.m.roles[id]
		r.m.mu.Unlock()
		if role.Name != name || role.UserRoleCount != int64(members) {
			problems = append(problems, fmt.Sprintf("role %d: %q with %d members, want %q with %d", id, role.Name, role.UserRoleCount, name, members))
		}
	}
	r.m.mu.Lock()
	for id := range r.m.deleted {
		if left, _, _ := r.s.App.Store.ListUserRolesOfRole(ctx, id, "", 10); len(left) > 0 {
			problems = append(problems, fmt.Sprintf("deleted role %d keeps %d memberships", id, len(left)))
		}
	}
	r.m.mu.Unlock()
	if len(problems) > 0 {
		t.Fatalf("%s (seed %d): the service disagrees with the model:\n%s", phase, r.seed, strings.Join(problems, "\n"))
	}

	// The SP, once the queue has drained.
	spDiff := func() string {
		var d []string
		byID := map[string]string{}
		atSP := map[string]string{} // userName -> given name
		for _, u := range r.sp.Users() {
			byID[u.ID] = u.UserName
			given := ""
			if u.Name != nil {
				given = u.Name.GivenName
			}
			if _, twice := atSP[u.UserName]; twice {
				d = append(d, "user twice "+u.UserName)
			}
			atSP[u.UserName] = given
		}
		for p := 0; p < r.people; p++ {
			person := r.person(p)
			isGuest := false
			for _, g := range holds[p] {
				isGuest = isGuest || g
			}
			given, there := atSP[person.EduPersonPrincipalName]
			switch {
			case isGuest && !there:
				d = append(d, fmt.Sprintf("person %d missing", p))
			case len(holds[p]) == 0 && there:
				// A user who keeps a role without its guest part stays where
				// it was created (it leaves the groups); one without any role
				// leaves every SP.
				d = append(d, fmt.Sprintf("person %d at the SP without any role", p))
			case there && given != person.GivenName:
				d = append(d, fmt.Sprintf("person %d named %q at the SP, want %q", p, given, person.GivenName))
			}
		}
		groups := map[string]bool{}
		r.m.mu.Lock()
		names := map[string]int64{}
		for id, name := range r.m.roles {
			names[name] = id
		}
		r.m.mu.Unlock()
		for _, g := range r.sp.Groups() {
			id, ok := names[g.DisplayName]
			if !ok || groups[g.DisplayName] {
				d = append(d, "unexpected group "+g.DisplayName)
				continue
			}
			groups[g.DisplayName] = true
			var got, want []string
			for _, m := range g.Members {
				got = append(got, byID[m.Value])
			}
			for p := range guests[id] {
				want = append(want, r.person(p).EduPersonPrincipalName)
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				d = append(d, fmt.Sprintf("group %q members %v, want %v", g.DisplayName, got, want))
			}
		}
		for name := range names {
			if !groups[name] {
				d = append(d, "missing group "+name)
			}
		}
		sort.Strings(d)
		return strings.Join(d, "; ")
	}
	deadline := time.Now().Add(3 * time.Minute) // bounds a failing run only
	for {
		busy := queueDepth(t, r.s, r.s.App.Settings.QueueURL) > 0 || pollerBusy(r.s)
		d := spDiff()
		if !busy && d == "" {
			return
		}
		if time.Now().After(deadline) {
			failed, _ := r.s.App.Service.FailedDeliveries(ctx, r.admin, "sp-model")
			t.Fatalf("%s (seed %d): queue busy %v; the SP disagrees with the service: %s\n%d dead letters", phase, r.seed, busy, d, len(failed))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
