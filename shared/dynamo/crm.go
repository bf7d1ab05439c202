package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// PutCRMOrganisation implements domain.CRMStore.
func (s *Store) PutCRMOrganisation(ctx context.Context, o domain.CRMOrganisation) error {
	if err := validCRMID("organisationId", o.OrganisationID); err != nil {
		return err
	}
	return s.putItem(ctx, newCRMOrganisationRecord(o))
}

// GetCRMOrganisation implements domain.CRMStore.
func (s *Store) GetCRMOrganisation(ctx context.Context, organisationID string) (domain.CRMOrganisation, error) {
	var rec crmOrganisationRecord
	found, err := s.getItem(ctx, crmOrganisationKey(organisationID), &rec)
	if err != nil {
		return domain.CRMOrganisation{}, err
	}
	if !found {
		return domain.CRMOrganisation{}, domain.NotFoundf("CRM organisation %q not found", organisationID)
	}
	return rec.domain()
}

// ListCRMOrganisations implements domain.CRMStore: Query gsi1 CRMORGS, at
// most limit organisations by id; more is set when there are more.
func (s *Store) ListCRMOrganisations(ctx context.Context, limit int) ([]domain.CRMOrganisation, bool, error) {
	in, err := s.partitionQuery(indexGSI1, gsi1CRMOrganisations, nil)
	if err != nil {
		return nil, false, err
	}
	var out []domain.CRMOrganisation
	for {
		in.Limit = aws.Int32(int32(limit + 1 - len(out)))
		page, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, false, fmt.Errorf("query CRM organisations: %w", err)
		}
		orgs, err := decodeAll(page.Items, decodeWith[crmOrganisationRecord, domain.CRMOrganisation])
		if err != nil {
			return nil, false, err
		}
		out = append(out, orgs...)
		if len(out) > limit {
			return out[:limit], true, nil
		}
		if len(page.LastEvaluatedKey) == 0 {
			return out, false, nil
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// DeleteCRMOrganisation implements domain.CRMStore.
func (s *Store) DeleteCRMOrganisation(ctx context.Context, organisationID string) error {
	key := crmOrganisationKey(organisationID)
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key.attributes(),
		ConditionExpression: aws.String("attribute_exists(pk)")})
	if isConditionFailed(err) {
		return domain.NotFoundf("CRM organisation %q not found", organisationID)
	}
	if err != nil {
		return fmt.Errorf("delete %s/%s: %w", key.PK, key.SK, err)
	}
	return nil
}

// PutCRMContact implements domain.CRMStore.
func (s *Store) PutCRMContact(ctx context.Context, c domain.CRMContact) error {
	if err := validCRMID("organisationId", c.OrganisationID); err != nil {
		return err
	}
	if err := validCRMID("contactId", c.ContactID); err != nil {
		return err
	}
	return s.putItem(ctx, newCRMContactRecord(c))
}

// GetCRMContact implements domain.CRMStore.
func (s *Store) GetCRMContact(ctx context.Context, organisationID, contactID string) (domain.CRMContact, error) {
	var rec crmContactRecord
	found, err := s.getItem(ctx, crmContactKey(organisationID, contactID), &rec)
	if err != nil {
		return domain.CRMContact{}, err
	}
	if !found {
		return domain.CRMContact{}, domain.NotFoundf("CRM contact %q of organisation %q not found", contactID, organisationID)
	}
	return rec.domain()
}

// DeleteCRMContact implements domain.CRMStore.
func (s *Store) DeleteCRMContact(ctx context.Context, organisationID, contactID string) error {
	key := crmContactKey(organisationID, contactID)
	if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key.attributes()}); err != nil {
		return fmt.Errorf("delete %s/%s: %w", key.PK, key.SK, err)
	}
	return nil
}

// ListCRMContacts implements domain.CRMStore: one Query of the
// organisation's partition.
func (s *Store) ListCRMContacts(ctx context.Context, organisationID string) ([]domain.CRMContact, error) {
	in, err := s.partitionQuery("", crmOrganisationPK(organisationID), sortKeyPrefix(prefixCRMContact))
	if err != nil {
		return nil, err
	}
	return s.crmContacts(ctx, in)
}

// ListCRMContactsByContactID implements domain.CRMStore: Query gsi1
// CRMCONTACT#<contactId>.
func (s *Store) ListCRMContactsByContactID(ctx context.Context, contactID string) ([]domain.CRMContact, error) {
	in, err := s.partitionQuery(indexGSI1, crmContactGSI1PK(contactID), nil)
	if err != nil {
		return nil, err
	}
	return s.crmContacts(ctx, in)
}

func (s *Store) crmContacts(ctx context.Context, in *dynamodb.QueryInput) ([]domain.CRMContact, error) {
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[crmContactRecord, domain.CRMContact])
}

// CreateCRMInvitation implements domain.CRMStore.
func (s *Store) CreateCRMInvitation(ctx context.Context, inv domain.Invitation) error {
	if inv.ID == 0 || inv.HashDigest == "" {
		return domain.Invalidf("invitation without id or hash digest")
	}
	if err := validCRMID("organisationId", inv.CRMOrganisationID); err != nil {
		return err
	}
	if err := validCRMID("contactId", inv.CRMContactID); err != nil {
		return err
	}
	t := s.newTxn()
	t.putNew(newInvitationRecord(inv, 1), always(domain.Conflictf("invitation %d already exists", inv.ID)))
	t.applyChanges(createdInvitation(inv))
	t.put(newCRMInvitationRecord(inv))
	return t.commit(ctx)
}

// ListCRMInvitations implements domain.CRMStore: Query of the
// organisation's partition for the links, then BatchGetItem of the
// invitations. Links whose invitation is gone (the cleanup job deletes
// expired invitations) are skipped.
func (s *Store) ListCRMInvitations(ctx context.Context, organisationID, contactID string) ([]domain.Invitation, error) {
	in, err := s.partitionQuery("", crmOrganisationPK(organisationID), sortKeyPrefix(crmInvitationLinkPrefix(contactID)))
	if err != nil {
		return nil, err
	}
	items, err := s.linkedInvitations(ctx, in)
	if err != nil {
		return nil, err
	}
	return invitationsByID(items)
}

// RenewCRMInvitation implements domain.CRMStore.
func (s *Store) RenewCRMInvitation(ctx context.Context, inv domain.Invitation) error {
	t := s.newTxn()
	key := invitationKey(inv.ID)
	t.putVersion(newInvitationRecord(inv, inv.Version+1), inv.Version, s.versionFailure(key, invitationNotFound(inv.ID)))
	t.put(newCRMInvitationRecord(inv))     // its TTL follows the new expiry
	t.applyChanges(changedInvitation(inv)) // so do the role links and their copies
	return t.commit(ctx)
}

// DeleteCRMInvitations implements domain.CRMStore.
func (s *Store) DeleteCRMInvitations(ctx context.Context, invs []domain.Invitation) error {
	for _, inv := range invs {
		t := s.newTxn()
		key := invitationKey(inv.ID)
		version := versionIs(inv.Version)
		t.delete(key, &version, s.versionFailure(key, invitationNotFound(inv.ID)))
		t.applyChanges(deletedInvitation(inv))
		if inv.CRMOrganisationID != "" && inv.CRMContactID != "" {
			t.delete(crmInvitationLinkKey(inv.CRMOrganisationID, inv.CRMContactID, inv.ID), nil, nil)
		}
		if err := t.commit(ctx); err != nil {
			return err
		}
	}
	return nil
}

// putItem writes one item whatever is stored.
func (s *Store) putItem(ctx context.Context, record any) error {
	av, err := marshal(record)
	if err != nil {
		return err
	}
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return fmt.Errorf("put %T: %w", record, err)
	}
	return nil
}
