package service

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scimprobe"
)

// ConnectionInput is the body of a connection's create or update: its
// settings and, write-only, the credential (the basic password, bearer
// token or OAuth client secret) in Secret. A credential is stored in
// Secrets Manager, one secret per connection, and never shown again.
// Super users may instead put a reference to a secret managed elsewhere
// (secretsmanager:… or env:…) in the method's auth field.
type ConnectionInput struct {
	config.ProvisioningDoc
	Secret string `json:"secret,omitempty"`
	// Credential and Applications are read-only fields of ConnectionView,
	// accepted and ignored so that a read connection can be sent back.
	Credential   *CredentialView `json:"credential,omitempty"`
	Applications []string        `json:"applications,omitempty"`
}

// CredentialView says whether a connection has a credential and where it
// is kept, never what it is.
type CredentialView struct {
	Configured bool `json:"configured"`
	// Managed: stored by the service in Secrets Manager (write-only).
	Managed bool `json:"managed"`
	// Reference is shown for credentials managed elsewhere only.
	Reference string `json:"reference,omitempty"`
}

// ConnectionView is a connection as the API shows it: the settings with
// the secret fields left out, and the state of its credential.
type ConnectionView struct {
	config.ProvisioningDoc
	Credential   CredentialView `json:"credential"`
	Applications []string       `json:"applications"`
}

func (s *Service) connectionView(p config.ProvisioningDoc, apps []string) ConnectionView {
	ref := p.Auth.SecretRef()
	managed := s.RegistryAdmin != nil && s.RegistryAdmin.Vault != nil && s.RegistryAdmin.Vault.Managed(ref, p.ID)
	v := ConnectionView{ProvisioningDoc: p, Credential: CredentialView{Configured: ref != "", Managed: managed}, Applications: apps}
	if !managed {
		v.Credential.Reference = ref
	}
	v.Auth = p.Auth.WithSecretRef("")
	if v.Applications == nil {
		v.Applications = []string{}
	}
	return v
}

// ListConnections lists the connections the caller manages, by id.
func (s *Service) ListConnections(ctx context.Context, p *auth.Principal) ([]ConnectionView, error) {
	org, all, err := registryScope(p)
	if err != nil {
		return nil, err
	}
	doc, err := s.registryDocument(ctx)
	if err != nil {
		return nil, err
	}
	users := map[string][]string{}
	for _, a := range doc.Applications {
		for _, pid := range a.Provisionings {
			users[pid] = append(users[pid], a.ManageID)
		}
	}
	out := []ConnectionView{}
	for _, c := range doc.Provisionings {
		if all || c.OrganizationGUID == org {
			out = append(out, s.connectionView(c, users[c.ID]))
		}
	}
	slices.SortFunc(out, func(a, b ConnectionView) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// registryDocument is the registry as written, from the cache when the
// registry has one (a change made here is seen at once: Invalidate), else
// from the table.
func (s *Service) registryDocument(ctx context.Context) (config.Document, error) {
	if d, ok := s.Registry.(interface{ Document() config.Document }); ok {
		return d.Document(), nil
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return config.Document{}, err
	}
	return ra.Store.LoadRegistry(ctx)
}

// GetConnection reads one connection.
func (s *Service) GetConnection(ctx context.Context, p *auth.Principal, id string) (ConnectionView, error) {
	c, err := s.loadConnection(ctx, p, id)
	if err != nil {
		return ConnectionView{}, err
	}
	var apps []string
	if cat := s.registryCatalogue(); cat != nil {
		for _, a := range cat.Applications() {
			if slices.Contains(a.ProvisioningIDs, id) {
				apps = append(apps, a.ManageID)
			}
		}
	}
	return s.connectionView(c, apps), nil
}

func (s *Service) loadConnection(ctx context.Context, p *auth.Principal, id string) (config.ProvisioningDoc, error) {
	if _, _, err := registryScope(p); err != nil {
		return config.ProvisioningDoc{}, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return config.ProvisioningDoc{}, err
	}
	c, found, err := ra.Store.LoadConnection(ctx, id)
	if err != nil {
		return c, err
	}
	if !found || !p.CanManageRegistryItem(c.OrganizationGUID) {
		return c, domain.NotFoundf("no SCIM connection %q", id)
	}
	return c, nil
}

// CreateConnection adds a SCIM connection; its credential is required.
func (s *Service) CreateConnection(ctx context.Context, p *auth.Principal, in ConnectionInput) (ConnectionView, error) {
	return s.saveConnection(ctx, p, in, nil)
}

// UpdateConnection replaces a connection's settings; without a new
// credential the stored one stays, unless the auth method or where the
// credential goes changes (registry_credentials.go).
func (s *Service) UpdateConnection(ctx context.Context, p *auth.Principal, id string, in ConnectionInput) (ConnectionView, error) {
	if in.ID != "" && in.ID != id {
		return ConnectionView{}, domain.Invalidf("id %q differs from the path's %q: a connection id cannot change", in.ID, id)
	}
	in.ID = id
	old, err := s.loadConnection(ctx, p, id)
	if err != nil {
		return ConnectionView{}, err
	}
	return s.saveConnection(ctx, p, in, &old)
}

func (s *Service) saveConnection(ctx context.Context, p *auth.Principal, in ConnectionInput, old *config.ProvisioningDoc) (ConnectionView, error) {
	org, all, err := registryScope(p)
	if err != nil {
		return ConnectionView{}, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return ConnectionView{}, err
	}
	if !all {
		in.OrganizationGUID = org
	}
	doc := in.ProvisioningDoc
	method := strings.ToLower(doc.Auth.Method)
	field := config.SecretField(method)
	ref := doc.Auth.SecretRef()
	var problems []string
	switch {
	case field == "":
		// ValidateConnection names the method.
	case in.Secret != "" && ref != "":
		problems = append(problems, "secret and auth."+field+" are both set: send the credential as secret, or (super users) a reference in auth."+field)
	case in.Secret != "":
		if len(in.Secret) > 4096 || strings.ContainsAny(in.Secret, "\r\n") {
			problems = append(problems, "secret must be at most 4096 characters on one line")
		}
		ref = "secretsmanager:pending" // replaced by the stored secret's reference below
	case ref != "":
		switch {
		case !all:
			problems = append(problems, "auth."+field+": institution admins send the credential itself as secret; references to secrets are for super users")
		case !strings.HasPrefix(ref, "secretsmanager:") || !config.IsSecretRef(ref):
			problems = append(problems, "auth."+field+" must be a secretsmanager:… reference (env:… only through the import); send a credential itself as secret")
		default:
			registry, err := s.registryDocument(ctx)
			if err != nil {
				return ConnectionView{}, err
			}
			others := referencesOf(registry.Provisionings, func(id string) bool { return id == doc.ID })
			if problem := ra.referenceProblem(doc.ID, field, ref, others); problem != "" {
				problems = append(problems, problem)
			} else if change := destinationChange(*cmp.Or(old, &doc), doc); change != "" && ra.Vault != nil && ra.Vault.Managed(ref, doc.ID) {
				// The connection's own stored credential, named by reference, is still the stored one.
				problems = append(problems, keptCredentialProblem(change))
			}
		}
	case old != nil && strings.EqualFold(old.Auth.Method, method):
		switch change := destinationChange(*old, doc); {
		case change != "":
			problems = append(problems, keptCredentialProblem(change))
		case !ra.referenceAllowed(doc.ID, old.Auth.SecretRef()):
			problems = append(problems, "secret is required: the stored credential's reference is not one this connection may use")
		default:
			ref = old.Auth.SecretRef() // the stored credential stays, going where it went
		}
	case old != nil:
		problems = append(problems, "secret is required when auth.method changes")
	default:
		problems = append(problems, "secret is required: the "+field+" the SP expects (stored in Secrets Manager, never shown again)")
	}
	if ref == "" && len(problems) > 0 {
		ref = "secretsmanager:pending" // the credential's problem is named already
	}
	doc.Auth = doc.Auth.WithSecretRef(ref)
	_, errs := config.ValidateConnection(doc)
	problems = append(problems, errs...)
	problems = append(problems, ra.addressProblems(ctx, doc, problems)...)
	if len(problems) > 0 {
		return ConnectionView{}, invalid(problems)
	}
	if old == nil {
		if existing, exists, err := ra.Store.LoadConnection(ctx, doc.ID); err != nil {
			return ConnectionView{}, err
		} else if exists && !p.CanManageRegistryItem(existing.OrganizationGUID) {
			// Another organization's id answers as GET does: not found.
			return ConnectionView{}, domain.NotFoundf("no SCIM connection %q", doc.ID)
		} else if exists {
			return ConnectionView{}, domain.Conflictf("connection %q already exists", doc.ID)
		}
	}
	ch := config.Change{Kind: config.KindConnection, ID: doc.ID, Action: config.ActionCreate, By: p.Name, At: s.now(),
		OrganizationGUID: doc.OrganizationGUID, Fields: changedFields(old, doc)}
	if old != nil {
		ch.Action = config.ActionUpdate
	}
	if in.Secret != "" {
		if ra.Vault == nil {
			return ConnectionView{}, domain.Unavailablef("credentials cannot be stored: no Secrets Manager configured")
		}
		stored, err := ra.Vault.Store(ctx, doc.ID, field, in.Secret)
		if err != nil {
			return ConnectionView{}, err
		}
		doc.Auth = doc.Auth.WithSecretRef(stored)
		ch.SecretChanged = true
	} else if old != nil && ref != old.Auth.SecretRef() {
		ch.SecretChanged = true
	}
	if err := ra.Store.SaveConnection(ctx, doc, old == nil, ch); err != nil {
		return ConnectionView{}, err
	}
	s.registryChanged(ctx, p, ch)
	return s.GetConnection(ctx, p, doc.ID)
}

// DeleteConnection removes a connection no application uses, and the
// secret the service kept for it.
func (s *Service) DeleteConnection(ctx context.Context, p *auth.Principal, id string) error {
	old, err := s.loadConnection(ctx, p, id)
	if err != nil {
		return err
	}
	ra, _ := s.registryAdmin()
	doc, err := ra.Store.LoadRegistry(ctx)
	if err != nil {
		return err
	}
	var users []string
	for _, a := range doc.Applications {
		if slices.Contains(a.Provisionings, id) {
			users = append(users, quote(a.ManageID))
		}
	}
	if len(users) > 0 {
		return domain.Conflictf("SCIM connection %q is used by the application(s) %s; unlink it there first", id, strings.Join(users, ", "))
	}
	ch := config.Change{Kind: config.KindConnection, ID: id, Action: config.ActionDelete, By: p.Name, At: s.now(), OrganizationGUID: old.OrganizationGUID}
	if err := ra.Store.DeleteConnection(ctx, id, ch); err != nil {
		return err
	}
	if ra.Vault != nil && ra.Vault.Managed(old.Auth.SecretRef(), id) {
		if err := ra.Vault.Delete(ctx, id); err != nil {
			s.log().Error("secret of a deleted connection not deleted", "sp", id, "error", err)
		}
	}
	s.registryChanged(ctx, p, ch)
	return nil
}

// failedTest is the report of a connection test that sent nothing.
func failedTest(id, check, summary string) scimprobe.Report {
	return scimprobe.Report{ConnectionID: id, Summary: summary, Warnings: []string{},
		Checks: []scimprobe.Check{{Name: check, Status: scimprobe.Fail, Detail: summary}}}
}

// TestConnection checks a stored connection at its SP with GETs only
// (scimprobe) and reports in plain words and fields. The stored address
// and reference pass the same rules as a change before anything is sent.
func (s *Service) TestConnection(ctx context.Context, p *auth.Principal, id string) (scimprobe.Report, error) {
	c, err := s.loadConnection(ctx, p, id)
	if err != nil {
		return scimprobe.Report{}, err
	}
	ra, _ := s.registryAdmin()
	t, problems := config.ValidateConnection(c)
	if len(problems) > 0 {
		return scimprobe.Report{}, invalid(problems)
	}
	creds := scimprobe.Credentials{Method: t.Auth.Method, Username: t.Auth.Username, TokenURL: t.Auth.TokenURL,
		ClientID: t.Auth.ClientID, Scopes: t.Auth.Scopes}
	if err := addressRefusal(ctx, ra.Outbound, t); err != nil {
		return failedTest(id, "address", "The service does not call this connection's address: "+err.Error()), nil
	}
	if !ra.referenceAllowed(id, t.Auth.SecretRef()) {
		return failedTest(id, "credentials", "The connection's credential is kept where this connection may not read it: enter the credential again."), nil
	}
	secret, err := ra.Secrets.Resolve(ctx, t.Auth.SecretRef())
	if err != nil {
		s.log().Warn("SCIM connection test: credential not readable", "sp", id, "error", err)
		return failedTest(id, "credentials", "The connection's credential cannot be read: enter it again, or ask the operator to check its secret."), nil
	}
	switch t.Auth.Method {
	case "basic":
		creds.Password = secret
	case "bearer":
		creds.Token = secret
	case "oauth2":
		creds.ClientSecret = secret
	}
	rep := ra.Prober.Test(ctx, scimprobe.Connection{ID: id, BaseURL: t.BaseURL, Version: t.Version,
		Membership: string(t.SP.MembershipMode), Credentials: creds})
	s.log().Info("SCIM connection tested", "sp", id, "by", p.LogID(), "ok", rep.OK, "reachable", rep.Reachable,
		"recommendedMembership", rep.RecommendedMembership, "warnings", len(rep.Warnings))
	return rep, nil
}
