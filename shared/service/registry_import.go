package service

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
)

// ImportResult counts what an import wrote.
type ImportResult struct {
	Applications int `json:"applications"`
	Connections  int `json:"connections"`
}

// ImportRegistry loads an applications document (the former
// APPLICATIONS_CONFIG) into the table: every connection and application is
// created, or replaced when it exists; secret references are kept as they
// are, if they are ones the connection may use. The whole document is
// validated first, so a bad one changes nothing. Super users only.
func (s *Service) ImportRegistry(ctx context.Context, p *auth.Principal, doc config.Document) (ImportResult, error) {
	var res ImportResult
	if err := requireSuperUser(p); err != nil {
		return res, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return res, err
	}
	if _, err := config.New(doc); err != nil {
		return res, domain.Invalidf("%s", err.Error())
	}
	if problems, err := s.importCredentialProblems(ctx, ra, doc); err != nil {
		return res, err
	} else if len(problems) > 0 {
		return res, invalid(problems)
	}
	now := s.now()
	for _, c := range doc.Provisionings {
		ch := config.Change{Kind: config.KindConnection, ID: c.ID, Action: config.ActionImport, By: p.Name, At: now,
			OrganizationGUID: c.OrganizationGUID, Fields: changedFields(nil, c)}
		err := ra.Store.SaveConnection(ctx, c, true, ch)
		if domain.KindOf(err) == domain.KindConflict {
			err = ra.Store.SaveConnection(ctx, c, false, ch)
		}
		if err != nil {
			return res, err
		}
		res.Connections++
	}
	for _, a := range doc.Applications {
		ch := config.Change{Kind: config.KindApplication, ID: a.ManageID, Action: config.ActionImport, By: p.Name, At: now,
			OrganizationGUID: a.OrganizationGUID, Fields: changedFields(nil, a)}
		old, found, err := ra.Store.LoadApplication(ctx, a.ManageID)
		if err != nil {
			return res, err
		}
		// An explicit id in the document is kept (roles show it); none gets
		// the table's next application id.
		if found {
			a.ID = old.ID
		}
		if _, err := ra.Store.SaveApplication(ctx, a, !found, ch); err != nil {
			return res, err
		}
		res.Applications++
	}
	if ra.Invalidate != nil {
		ra.Invalidate()
	}
	s.log().Info("registry imported", "by", p.LogID(), "applications", res.Applications, "connections", res.Connections)
	s.recordRegistryImport(ctx, p, res)
	return res, nil
}

// importCredentialProblems applies the credential and address rules of a
// connection's update to each connection of an import: references only to
// the connection's own secret or under the operator's prefixes, each
// secret for one connection, addresses the policy allows, and a stored
// credential kept only where it already went.
func (s *Service) importCredentialProblems(ctx context.Context, ra *RegistryAdmin, doc config.Document) ([]string, error) {
	registry, err := ra.Store.LoadRegistry(ctx)
	if err != nil {
		return nil, err
	}
	stored := map[string]config.ProvisioningDoc{}
	for _, c := range registry.Provisionings {
		stored[c.ID] = c
	}
	imported := map[string]bool{}
	for _, c := range doc.Provisionings {
		imported[c.ID] = true
	}
	var problems []string
	for _, c := range doc.Provisionings {
		field := config.SecretField(strings.ToLower(c.Auth.Method))
		ref := c.Auth.SecretRef()
		others := referencesOf(registry.Provisionings, func(id string) bool { return imported[id] })
		maps.Copy(others, referencesOf(doc.Provisionings, func(id string) bool { return id == c.ID }))
		var own []string
		if problem := ra.referenceProblem(c.ID, field, ref, others); problem != "" {
			own = append(own, problem)
		} else if old, ok := stored[c.ID]; ok && ra.Vault != nil && ra.Vault.Managed(ref, c.ID) {
			if change := destinationChange(old, c); change != "" {
				own = append(own, keptCredentialProblem(change)+" (send it with the connection's update)")
			}
		}
		own = append(own, ra.addressProblems(ctx, c, nil)...)
		for _, p := range own {
			problems = append(problems, fmt.Sprintf("connection %q: %s", c.ID, p))
		}
	}
	return problems, nil
}
