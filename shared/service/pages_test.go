package service_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func TestAcceptanceBlock(t *testing.T) {
	inv := domain.Invitation{Email: "carol@example.org"}
	tests := []struct {
		name   string
		link   service.InvitationLink
		person auth.Person
		want   service.AcceptBlock
	}{
		{"nothing asked", service.InvitationLink{Invitation: inv}, auth.Person{Email: "other@example.org"}, service.BlockNone},
		{"same e-mail, any case", service.InvitationLink{Invitation: withEquality(inv)}, auth.Person{Email: " Carol@Example.org"}, service.BlockNone},
		{"other e-mail", service.InvitationLink{Invitation: withEquality(inv)}, auth.Person{Email: "mallory@example.org"}, service.BlockEmailMismatch},
		{"federated only without fedId", service.InvitationLink{Invitation: domain.Invitation{FedIDOnly: true}}, auth.Person{}, service.BlockFederatedOnly},
		{"federated only with fedId", service.InvitationLink{Invitation: domain.Invitation{FedIDOnly: true}}, auth.Person{FedID: "f"}, service.BlockNone},
		{"acr asked, none given", service.InvitationLink{Invitation: inv, RequiredACR: "mfa"}, auth.Person{}, service.BlockStepUp},
		{"acr asked, other given", service.InvitationLink{Invitation: inv, RequiredACR: "mfa"}, auth.Person{ACR: "password"}, service.BlockStepUp},
		{"acr asked and given", service.InvitationLink{Invitation: inv, RequiredACR: "mfa"}, auth.Person{ACR: "mfa"}, service.BlockNone},
		{"mismatch before step-up", service.InvitationLink{Invitation: withEquality(inv), RequiredACR: "mfa"}, auth.Person{Email: "x@y.z"}, service.BlockEmailMismatch},
		{"stronger acr given", service.InvitationLink{Invitation: inv, RequiredACR: "password"}, auth.Person{ACR: "mfa"}, service.BlockNone},
		{"weaker acr given", service.InvitationLink{Invitation: inv, RequiredACR: "mfa"}, auth.Person{ACR: "password"}, service.BlockStepUp},
		{"acr outside the order", service.InvitationLink{Invitation: inv, RequiredACR: "password"}, auth.Person{ACR: "other"}, service.BlockStepUp},
	}
	ordered := &service.Service{Contexts: auth.ContextOrder{"password", "mfa"}}
	for _, tc := range tests {
		if got := ordered.AcceptanceBlock(tc.link, tc.person); got != tc.want {
			t.Errorf("%s: AcceptanceBlock = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func withEquality(inv domain.Invitation) domain.Invitation {
	inv.EnforceEmailEquality = true
	return inv
}
