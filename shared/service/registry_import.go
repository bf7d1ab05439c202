package service

import (
	"context"

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
// are. The whole document is validated first, so a bad one changes
// nothing. Super users only.
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
	return res, nil
}
