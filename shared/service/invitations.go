package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	invitemail "github.com/edu-invite/invite/shared/mail"
)

// InvitationInput is an invitation request (spec 2.8).
type InvitationInput struct {
	IntendedAuthority     string
	Message               string
	Language              string
	EnforceEmailEquality  *bool
	FedIDOnly             *bool
	RequestedAuthnContext string
	GuestRoleIncluded     bool
	SuppressSendingEmails bool
	Invites               []string
	WithPlaceholders      []PlaceholderRecipient
	RoleIDs               []int64
	OrganizationGUID      string
	RoleExpiryDate        *time.Time
	ExpiryDate            *time.Time
}

// PlaceholderRecipient is a recipient with the institution's own id for
// them, passed to SPs at user creation (spec 1.7).
type PlaceholderRecipient struct {
	Email                         string
	InternalPlaceholderIdentifier string
}

// InvitationResult is the response of I2/I3.
type InvitationResult struct {
	Status int
	URLs   []RecipientURL
	// IDs are the invitations' ids, in the order of URLs.
	IDs []int64
}

// RecipientURL is where one recipient accepts.
type RecipientURL struct {
	Recipient     string
	InvitationURL string
}

// MaxInvitationValidityDays bounds how long an invitation link stays
// valid: a link is a bearer credential in someone's mailbox, so it must
// not live for ever; a year covers the longest invitations institutions
// send (an academic year ahead).
const MaxInvitationValidityDays = 365

// maxRecipients bounds one request; the spec leaves it open and the
// reference does not limit it, but one request must fit a Lambda's time.
const maxRecipients = 500

// Invite creates one invitation per recipient and e-mails each of them.
func (s *Service) Invite(ctx context.Context, p *auth.Principal, in InvitationInput) (InvitationResult, error) {
	if p == nil {
		return InvitationResult{}, domain.Unauthenticatedf("authentication required")
	}
	recipients, err := recipientsOf(in)
	if err != nil {
		return InvitationResult{}, err
	}
	intended, err := domain.ParseAuthority(in.IntendedAuthority)
	if err != nil {
		return InvitationResult{}, err
	}
	now := s.now()
	if in.ExpiryDate == nil {
		return InvitationResult{}, domain.Invalidf("expiryDate is required")
	}
	if err := domain.CheckFutureDate("expiryDate", in.ExpiryDate, now); err != nil {
		return InvitationResult{}, err
	}
	if in.ExpiryDate.After(now.AddDate(0, 0, MaxInvitationValidityDays)) {
		return InvitationResult{}, domain.Invalidf("expiryDate is more than %d days ahead: an invitation link is valid for at most a year", MaxInvitationValidityDays)
	}
	if err := domain.CheckFutureDate("roleExpiryDate", in.RoleExpiryDate, now); err != nil {
		return InvitationResult{}, err
	}
	if err := checkTexts(prose("message", in.Message), line("requestedAuthnContext", in.RequestedAuthnContext),
		line("organizationGUID", in.OrganizationGUID)); err != nil {
		return InvitationResult{}, err
	}
	lang := domain.Language(in.Language)
	switch lang {
	case "":
		lang = domain.English
	case domain.English, domain.Dutch:
	default:
		return InvitationResult{}, domain.Invalidf("language must be en or nl")
	}
	roles, org, inviterAuthority, err := s.invitationScope(ctx, p, in, intended)
	if err != nil {
		return InvitationResult{}, err
	}
	settings := invitationSettingsOf(in, roles)
	if err := s.checkAcceptanceFits(ctx, p, domain.Invitation{IntendedAuthority: intended, GuestRoleIncluded: in.GuestRoleIncluded,
		Language: lang, RoleExpiryDate: in.RoleExpiryDate, OrganizationGUID: org, InviterName: p.Name}, roles); err != nil {
		return InvitationResult{}, err
	}
	if err := s.reserveInvitations(ctx, p, len(recipients)); err != nil {
		return InvitationResult{}, err
	}

	first, err := s.Store.NextIDs(ctx, "invitation", len(recipients))
	if err != nil {
		return InvitationResult{}, err
	}
	invs := make([]domain.Invitation, len(recipients))
	secrets := make([]string, len(recipients))
	for i, r := range recipients {
		secret, digest := newInvitationSecret()
		secrets[i] = secret
		invs[i] = domain.Invitation{
			ID: first + int64(i), IntendedAuthority: intended, Language: lang, Status: domain.InvitationOpen,
			Email: r.Email, Message: in.Message, RequestedAuthnContext: settings.requestedAuthnContext,
			EnforceEmailEquality: settings.enforceEmailEquality, FedIDOnly: settings.fedIDOnly,
			GuestRoleIncluded: in.GuestRoleIncluded, CreatedAt: now, ExpiryDate: in.ExpiryDate.UTC(), RoleExpiryDate: in.RoleExpiryDate,
			OrganizationGUID: org, InternalPlaceholderIdentifier: r.InternalPlaceholderIdentifier,
			RoleIDs: roleIDs(roles), InviterName: p.Name, InviterAuthority: inviterAuthority, HashDigest: digest, LinkSecret: secret,
		}
		if p.IsProgram() {
			invs[i].RemoteAPIUser = p.Name
		}
		if p.User != nil {
			invs[i].InviterUserID = p.User.ID
			invs[i].InviterEmail = p.User.Email
		}
	}
	if err := s.Store.CreateInvitations(ctx, invs); err != nil {
		return InvitationResult{}, err
	}
	s.recordInvitations(ctx, p, domain.AuditInvitationCreated, invs, roles)

	result := InvitationResult{Status: 201}
	links := make([]string, len(invs))
	for i, inv := range invs {
		links[i] = s.invitationURL(secrets[i])
		result.URLs = append(result.URLs, RecipientURL{Recipient: inv.Email, InvitationURL: links[i]})
		result.IDs = append(result.IDs, inv.ID)
	}
	if !in.SuppressSendingEmails {
		// Queued in the mail outbox, sent for at most flushTimeout here;
		// the outbox sweep sends the rest, so that hundreds of recipients
		// are answered as fast as a few.
		s.flushMails(ctx, s.queueInvitationMails(ctx, invs, roles, links))
	}
	return result, nil
}

// recipientsOf lists the recipients of both lists, as the reference does:
// those with a placeholder id first, then the plain addresses; an address
// in both lists is invited once, with its placeholder id.
func recipientsOf(in InvitationInput) ([]PlaceholderRecipient, error) {
	out := append([]PlaceholderRecipient(nil), in.WithPlaceholders...)
	withPlaceholder := map[string]bool{}
	for _, r := range in.WithPlaceholders {
		if email, err := normalizeEmail(r.Email); err == nil {
			withPlaceholder[email] = true
		}
	}
	for _, e := range in.Invites {
		if email, err := normalizeEmail(e); err == nil && withPlaceholder[email] {
			continue
		}
		out = append(out, PlaceholderRecipient{Email: e})
	}
	if len(out) == 0 {
		return nil, domain.Invalidf("at least one recipient is required")
	}
	if len(out) > maxRecipients {
		return nil, domain.Invalidf("at most %d recipients per request", maxRecipients)
	}
	if err := refuseInvalidAddresses(out); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, r := range out {
		email, err := normalizeEmail(r.Email)
		if err != nil {
			return nil, err
		}
		// Mailboxes are case-insensitive in practice: A@x.org and a@x.org
		// are one recipient.
		if key := strings.ToLower(email); seen[key] {
			return nil, domain.Invalidf("recipient %q is listed twice", email)
		} else {
			seen[key] = true
		}
		out[i].Email = email
		out[i].InternalPlaceholderIdentifier = strings.TrimSpace(r.InternalPlaceholderIdentifier)
		if err := checkTexts(line("internalPlaceholderIdentifier", out[i].InternalPlaceholderIdentifier)); err != nil {
			return nil, err
		}
		if i < len(in.WithPlaceholders) && out[i].InternalPlaceholderIdentifier == "" {
			return nil, domain.Invalidf("internalPlaceholderIdentifier is required for %q", email)
		}
	}
	return out, nil
}

// refuseInvalidAddresses names every recipient that is not a valid address
// in one error, so that an inviter fixes a pasted list in one go (the
// reference drops such addresses silently; here the request changes
// nothing).
func refuseInvalidAddresses(recipients []PlaceholderRecipient) error {
	var bad []string
	for _, r := range recipients {
		if _, err := normalizeEmail(r.Email); err != nil {
			bad = append(bad, err.Error())
		}
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return domain.Invalidf("%s", bad[0])
	}
	return domain.Invalidf("%d recipients are not valid e-mail addresses: %s", len(bad), strings.Join(bad, "; "))
}

// normalizeEmail accepts a bare, deliverable address only ("Name <a@b>"
// is not an address to invite, nor is a@localhost or a@1.2.3.4) and
// lower-cases its domain. The refused value is quoted in ASCII and cut
// short, so that the message cannot carry control characters.
func normalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	addr, err := mail.ParseAddress(s)
	local, host, _ := strings.Cut(s, "@")
	if err != nil || addr.Address != s || addr.Name != "" || len(s) > domain.MaxEmailLength || !domain.CheckMailDomain(host) ||
		domain.CheckText("e-mail address", s, domain.MaxEmailLength, false) != nil {
		shown := s
		if len(shown) > 60 {
			shown = shown[:60] + "..."
		}
		return "", domain.Invalidf("%s is not a valid e-mail address", strconv.QuoteToASCII(shown))
	}
	return local + "@" + strings.ToLower(host), nil
}

// rolesToInviteTo reads the roles of an invitation (or of U8) and checks
// that the caller may grant the intended authority on each, by the ladder
// of auth.MayGrant; it returns the roles and the inviter authority the
// invitation records.
func (s *Service) rolesToInviteTo(ctx context.Context, p *auth.Principal, ids []int64, intended domain.Authority) ([]domain.Role, domain.Authority, error) {
	if len(ids) == 0 {
		return nil, "", domain.Invalidf("roleIdentifiers must name at least one role")
	}
	unique := map[int64]bool{}
	for _, id := range ids {
		unique[id] = true
	}
	roles, err := s.Store.GetRoles(ctx, ids)
	if err != nil {
		return nil, "", err
	}
	// Roles of organizations the caller does not belong to are as unknown
	// as ids that name no role.
	found := map[int64]bool{}
	for _, r := range roles {
		outside, err := s.roleOutsideTenant(ctx, p, r)
		if err != nil {
			return nil, "", err
		}
		found[r.ID] = !outside
	}
	var missing []string
	for _, id := range ids {
		if !found[id] && !slices.Contains(missing, itoa(id)) {
			missing = append(missing, itoa(id))
		}
	}
	if len(missing) > 0 {
		return nil, "", domain.Invalidf("unknown role ids: %s", strings.Join(missing, ", "))
	}
	var managed []domain.Role
	if intended == domain.Guest && slices.ContainsFunc(roles, func(r domain.Role) bool { return !p.CanInvite(r, intended) }) {
		// Only then the roles the caller manages are read: their
		// applications may open other roles of their organization to the
		// caller's guests.
		if managed, err = s.managedRoles(ctx, p); err != nil {
			return nil, "", err
		}
	}
	for _, r := range roles {
		if !auth.MayGrant(p, r, intended, managed) {
			return nil, "", domain.Forbiddenf("not allowed to grant %s on role %d", intended, r.ID)
		}
	}
	return roles, auth.InviterAuthority(p, roles, managed), nil
}

// organizationOfRoles is the organization of an invitation to roles: that
// of its roles, never one a request names, so that an invitee lands in the
// organization whose roles they accept. Roles of two organizations make two
// invitations, not one.
func organizationOfRoles(roles []domain.Role) (string, error) {
	org := roles[0].OrganizationGUID
	for _, r := range roles[1:] {
		if r.OrganizationGUID != org {
			return "", domain.Invalidf("the roles of one invitation must belong to one organization")
		}
	}
	return org, nil
}

// managedRoles reads the roles the caller holds MANAGER or higher on.
func (s *Service) managedRoles(ctx context.Context, p *auth.Principal) ([]domain.Role, error) {
	var ids []int64
	for id, a := range p.Memberships {
		if a.AtLeast(domain.Manager) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	slices.Sort(ids)
	return s.Store.GetRoles(ctx, ids)
}

// queueInvitationMail writes the invitation e-mail to the mail outbox.
func (s *Service) queueInvitationMail(ctx context.Context, inv domain.Invitation, roles []domain.Role, link string) (domain.MailDelivery, bool) {
	mails := s.queueInvitationMails(ctx, []domain.Invitation{inv}, roles, []string{link})
	if len(mails) == 0 {
		return domain.MailDelivery{}, false
	}
	return mails[0], true
}

// queueInvitationMails writes the e-mails of invitations of one inviter to
// the same roles (one request's) to the mail outbox, in as few
// transactions as they fit: a refused or slow SES never fails or blocks
// the invitations, and the sweep sends what did not go out at once. It
// returns the mails queued.
func (s *Service) queueInvitationMails(ctx context.Context, invs []domain.Invitation, roles []domain.Role, links []string) []domain.MailDelivery {
	if s.Mailer == nil || s.Renderer == nil || len(invs) == 0 {
		return nil
	}
	// Who invites: a person or a program by name, else the organization;
	// an institution admin invitation names its organization by name.
	inviter := s.InviterName(ctx, invs[0], roles)
	mails := make([]domain.MailDelivery, 0, len(invs))
	orgs := s.OrganizationChoices(ctx) // read once for all the mails
	for i, inv := range invs {
		lang := i18n.Supported(string(inv.Language))
		if lang == "" {
			lang = i18n.Fallback
		}
		m := invitemail.Invitation{Language: string(inv.Language), To: inv.Email, InviterName: inviter,
			Authority: string(inv.IntendedAuthority), Message: inv.Message, ExpiresAt: inv.ExpiryDate, RoleEndDate: inv.RoleExpiryDate, URL: links[i]}
		if inv.OrganizationGUID != "" {
			o, _ := domain.OrganizationOf(orgs, inv.OrganizationGUID)
			m.Organization = o.DisplayName(lang)
		}
		if m.InviterName == "" {
			m.InviterName = invitingOrganization(orgs, inv, roles, lang)
		}
		for _, r := range roles {
			m.Roles = append(m.Roles, roleInfo(r))
		}
		email, err := s.Renderer.Invitation(m)
		if err != nil {
			// The invitation exists and its link is in the response. Never
			// log the address (personal data).
			s.log().ErrorContext(ctx, "invitation e-mail not rendered", "invitation", inv.ID, "error", domain.RedactEmails(err.Error()))
			continue
		}
		mails = append(mails, s.newMail(email))
	}
	if err := s.Store.PutMails(ctx, mails); err != nil {
		s.log().ErrorContext(ctx, "invitation e-mails not queued", "invitations", len(invs), "firstInvitation", invs[0].ID,
			"error", domain.RedactEmails(err.Error()))
		return nil
	}
	return mails
}

func (s *Service) invitationURL(secret string) string {
	base := strings.TrimRight(s.PublicBaseURL, "/")
	return base + "/invitation/accept?hash=" + url.QueryEscape(secret)
}

// newInvitationSecret returns the secret of an invitation link and its
// digest; only the digest is stored.
func newInvitationSecret() (secret, digest string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	secret = base64.RawURLEncoding.EncodeToString(b[:])
	return secret, HashDigest(secret)
}

// HashDigest is how invitation secrets are looked up.
func HashDigest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// OpenInvitation returns an invitation by the secret of its link (I6).
func (s *Service) OpenInvitation(ctx context.Context, secret string) (domain.Invitation, []domain.Role, error) {
	if strings.TrimSpace(secret) == "" {
		return domain.Invitation{}, nil, domain.Invalidf("hash is required")
	}
	inv, err := s.Store.GetInvitationByHashDigest(ctx, HashDigest(secret))
	if err != nil {
		if domain.IsNotFound(err) {
			return domain.Invitation{}, nil, domain.NotFoundf("no invitation for this link")
		}
		return domain.Invitation{}, nil, err
	}
	if err := checkOpen(inv, s.now()); err != nil {
		return domain.Invitation{}, nil, err
	}
	roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
	if err != nil {
		return domain.Invitation{}, nil, err
	}
	return inv, roles, nil
}

func checkOpen(inv domain.Invitation, now time.Time) error {
	switch {
	case inv.Status == domain.InvitationAccepted:
		return domain.Conflictf("invitation %d has already been accepted", inv.ID)
	case inv.Status != domain.InvitationOpen || inv.Expired(now):
		return domain.Gonef("invitation %d has expired", inv.ID)
	}
	return nil
}

func boolOr(v *bool, def bool) bool {
	if v != nil {
		return *v
	}
	return def
}

func roleIDs(roles []domain.Role) []int64 {
	var ids []int64
	for _, r := range roles {
		ids = append(ids, r.ID)
	}
	return ids
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// invitationScope checks the roles of an invitation and returns them with
// the invitation's organization. Only INSTITUTION_ADMIN invitations may name
// no role (409 for others, as in the reference): a super user names the
// organization, an institution admin invites to their own.
func (s *Service) invitationScope(ctx context.Context, p *auth.Principal, in InvitationInput, intended domain.Authority) ([]domain.Role, string, domain.Authority, error) {
	if len(in.RoleIDs) > 0 {
		roles, inviterAuthority, err := s.rolesToInviteTo(ctx, p, in.RoleIDs, intended)
		if err != nil {
			return nil, "", "", err
		}
		org, err := organizationOfRoles(roles)
		return roles, org, inviterAuthority, err
	}
	if intended != domain.InstitutionAdmin {
		return nil, "", "", domain.Conflictf("an invitation for %s must name at least one role", intended)
	}
	switch {
	case p.SuperUser:
		if strings.TrimSpace(in.OrganizationGUID) == "" {
			return nil, "", "", domain.Invalidf("organizationGUID is required for an institution admin invitation without roles")
		}
		return nil, strings.TrimSpace(in.OrganizationGUID), auth.InviterAuthority(p, nil, nil), nil
	case p.CanCreateRoleIn(p.OrganizationGUID) && p.Kind == auth.KindPerson:
		return nil, p.OrganizationGUID, auth.InviterAuthority(p, nil, nil), nil
	}
	return nil, "", "", domain.Forbiddenf("only super users and institution admins invite institution admins")
}

// invitationSettings are the acceptance conditions an invitation carries.
type invitationSettings struct {
	enforceEmailEquality, fedIDOnly bool
	requestedAuthnContext           string
}

// invitationSettingsOf: the roles decide enforceEmailEquality, fedIDOnly
// and requestedAuthnContext (each the strictest of the roles), unless
// every role allows overriding them; only then does the request decide,
// and what it leaves out still comes from the roles.
func invitationSettingsOf(in InvitationInput, roles []domain.Role) invitationSettings {
	override := len(roles) > 0
	var fromRoles invitationSettings
	for _, r := range roles {
		override = override && r.OverrideSettingsAllowed
		fromRoles.enforceEmailEquality = fromRoles.enforceEmailEquality || r.EnforceEmailEquality
		fromRoles.fedIDOnly = fromRoles.fedIDOnly || r.FedIDOnly
		fromRoles.requestedAuthnContext = firstNonEmpty(fromRoles.requestedAuthnContext, r.RequestedAuthnContext)
	}
	if !override {
		if len(roles) == 0 { // a role-less INSTITUTION_ADMIN invitation
			return invitationSettings{enforceEmailEquality: boolOr(in.EnforceEmailEquality, false),
				fedIDOnly: boolOr(in.FedIDOnly, false), requestedAuthnContext: strings.TrimSpace(in.RequestedAuthnContext)}
		}
		return fromRoles
	}
	return invitationSettings{enforceEmailEquality: boolOr(in.EnforceEmailEquality, fromRoles.enforceEmailEquality),
		fedIDOnly:             boolOr(in.FedIDOnly, fromRoles.fedIDOnly),
		requestedAuthnContext: firstNonEmpty(strings.TrimSpace(in.RequestedAuthnContext), fromRoles.requestedAuthnContext)}
}
