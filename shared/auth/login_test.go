package auth

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

type fakeObserver struct {
	calls []Person
	err   error
}

func (f *fakeObserver) PersonLoggedIn(_ context.Context, u domain.User, p Person) (domain.User, error) {
	f.calls = append(f.calls, p)
	if f.err != nil {
		return domain.User{}, f.err
	}
	u.Email, u.Version = p.Email, u.Version+1
	return u, nil
}

func TestKnownPersonsLoginIsObserved(t *testing.T) {
	users := fakeUsers{bySub: map[string]domain.User{"alice": {ID: 3, Sub: "alice", Email: "old@example.org", Version: 4}}}
	people := fakeVerifier{"alice-jwt": {Sub: "alice", Email: "new@example.org"}, "bob-jwt": {Sub: "bob"}}
	tests := []struct {
		name      string
		token     string
		err       error
		wantCalls int
		wantEmail string
	}{
		{"known person: the stored user is what the observer returns", "alice-jwt", nil, 1, "new@example.org"},
		{"a failing observer does not refuse the login", "alice-jwt", errors.New("table down"), 1, "old@example.org"},
		{"unknown person: nothing to observe", "bob-jwt", nil, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obs := &fakeObserver{err: tc.err}
			a := &Authenticator{Users: users, People: people, OnLogin: obs}
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Authorization", "Bearer "+tc.token)
			p, err := a.Authenticate(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(obs.calls) != tc.wantCalls {
				t.Fatalf("%d observer calls, want %d", len(obs.calls), tc.wantCalls)
			}
			if tc.wantEmail == "" {
				if p.User != nil {
					t.Fatalf("unknown person has user %+v", p.User)
				}
				return
			}
			if p.User == nil || p.User.Email != tc.wantEmail {
				t.Fatalf("principal user %+v, want e-mail %s", p.User, tc.wantEmail)
			}
		})
	}
}
