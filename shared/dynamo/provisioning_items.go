package dynamo

import (
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// deliveredRetention is how long a delivered outbox item is kept (for
// support questions) before TTL removes it.
const deliveredRetention = 14 * 24 * time.Hour

// deliveryRecord is an outbox item. gsi1 lists pending, sent and failed
// deliveries by status in creation order (the sweep reads OUTBOX#pending;
// see outboxListed); gsi2 holds the failed ones per SP (the dead-letter
// view for replays).
type deliveryRecord struct {
	itemKey
	indexKeys
	Entity        string `dynamodbav:"entity"`
	ID            string `dynamodbav:"id"`
	SPID          string `dynamodbav:"spId"`
	Kind          string `dynamodbav:"kind"`
	UserID        int64  `dynamodbav:"userId,omitempty"`
	RoleID        int64  `dynamodbav:"roleId,omitempty"`
	CorrelationID string `dynamodbav:"correlationId,omitempty"`
	ExternalID    string `dynamodbav:"externalId,omitempty"`
	UserEmail     string `dynamodbav:"userEmail,omitempty"`
	RoleName      string `dynamodbav:"roleName,omitempty"`
	UserSub       string `dynamodbav:"userSub,omitempty"`
	CreatedAt     string `dynamodbav:"createdAt"`
	Status        string `dynamodbav:"status"`
	Attempts      int    `dynamodbav:"attempts,omitempty"`
	Replays       int    `dynamodbav:"replays,omitempty"`
	OrderKey      string `dynamodbav:"orderKey,omitempty"`
	LastError     string `dynamodbav:"lastError,omitempty"`
	UpdatedAt     string `dynamodbav:"updatedAt,omitempty"`
}

// deliveryRecord stores d. A delivery written with a domain change usually
// comes without status and times: it is then pending as of now.
func (s *Store) deliveryRecord(d domain.Delivery) deliveryRecord {
	now := s.now()
	if d.Status == "" {
		d.Status = domain.DeliveryPending
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now
	}
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = now
	}
	rec := deliveryRecord{
		itemKey:       deliveryKey(d.ID),
		Entity:        entityDelivery,
		ID:            d.ID,
		SPID:          d.SPID,
		Kind:          string(d.Kind),
		UserID:        d.UserID,
		RoleID:        d.RoleID,
		CorrelationID: d.CorrelationID,
		ExternalID:    d.ExternalID,
		UserEmail:     d.UserEmail,
		RoleName:      d.RoleName,
		UserSub:       d.UserSub,
		CreatedAt:     formatTime(d.CreatedAt),
		Status:        string(d.Status),
		Attempts:      d.Attempts,
		Replays:       d.Replays,
		OrderKey:      d.OrderKey,
		LastError:     d.LastError,
		UpdatedAt:     formatTime(d.UpdatedAt),
	}
	if outboxListed(d.Status) {
		rec.GSI1PK, rec.GSI1SK = outboxPK(d.Status), timeOrdered(d.CreatedAt, d.ID)
	}
	switch d.Status {
	case domain.DeliveryFailed:
		rec.GSI2PK = "DLQ#" + d.SPID
		rec.GSI2SK = d.ID
	case domain.DeliveryDelivered:
		rec.TTL = d.UpdatedAt.Add(deliveredRetention).Unix()
	}
	return rec
}

func (rec deliveryRecord) domain() (domain.Delivery, error) {
	var p timeParser
	d := domain.Delivery{
		ID:            rec.ID,
		SPID:          rec.SPID,
		Kind:          domain.DeliveryKind(rec.Kind),
		UserID:        rec.UserID,
		RoleID:        rec.RoleID,
		CorrelationID: rec.CorrelationID,
		ExternalID:    rec.ExternalID,
		UserEmail:     rec.UserEmail,
		RoleName:      rec.RoleName,
		UserSub:       rec.UserSub,
		CreatedAt:     p.time(rec.CreatedAt),
		Status:        domain.DeliveryStatus(rec.Status),
		Attempts:      rec.Attempts,
		Replays:       rec.Replays,
		OrderKey:      rec.OrderKey,
		LastError:     rec.LastError,
		UpdatedAt:     p.time(rec.UpdatedAt),
	}
	return d, p.err
}

// putDeliveries adds the outbox items of a domain change to its transaction.
func (t *txn) putDeliveries(deliveries []domain.Delivery) {
	for _, d := range deliveries {
		if d.ID == "" {
			t.fail(domain.Invalidf("delivery without id"))
			return
		}
		t.put(t.store.deliveryRecord(d))
	}
}

// spLinkRecord is what the service knows of one user or group at one SP.
// gsi1 lists the links of one SP.
type spLinkRecord struct {
	itemKey
	indexKeys
	Entity        string `dynamodbav:"entity"`
	Kind          string `dynamodbav:"kind"`
	LocalID       int64  `dynamodbav:"localId"`
	SPID          string `dynamodbav:"spId"`
	RemoteID      string `dynamodbav:"remoteId,omitempty"`
	Status        string `dynamodbav:"status,omitempty"`
	ProvisionedAt string `dynamodbav:"provisionedAt,omitempty"`
	UpdatedAt     string `dynamodbav:"updatedAt,omitempty"`
	Attempts      int    `dynamodbav:"attempts,omitempty"`
	LastError     string `dynamodbav:"lastError,omitempty"`
	// MembersAddedAt: see domain.SPLink (groups' links only).
	MembersAddedAt string `dynamodbav:"membersAddedAt,omitempty"`
}

func newSPLinkRecord(l domain.SPLink) spLinkRecord {
	return spLinkRecord{
		itemKey: spLinkKey(l.Kind, l.LocalID, l.SPID),
		indexKeys: indexKeys{
			GSI1PK: "SP#" + l.SPID,
			GSI1SK: string(l.Kind) + "#" + id(l.LocalID),
		},
		Entity:        entitySPLink,
		Kind:          string(l.Kind),
		LocalID:       l.LocalID,
		SPID:          l.SPID,
		RemoteID:      l.RemoteID,
		Status:        string(l.Status),
		ProvisionedAt: formatTimePtr(l.ProvisionedAt),
		UpdatedAt:     formatTime(l.UpdatedAt),
		Attempts:      l.Attempts,
		LastError:     l.LastError,

		MembersAddedAt: formatTimePtr(l.MembersAddedAt),
	}
}

func (rec spLinkRecord) domain() (domain.SPLink, error) {
	var p timeParser
	l := domain.SPLink{
		Kind:          domain.ResourceKind(rec.Kind),
		LocalID:       rec.LocalID,
		SPID:          rec.SPID,
		RemoteID:      rec.RemoteID,
		Status:        domain.ProvisioningStatus(rec.Status),
		ProvisionedAt: p.ptr(rec.ProvisionedAt),
		UpdatedAt:     p.time(rec.UpdatedAt),
		Attempts:      rec.Attempts,
		LastError:     rec.LastError,

		MembersAddedAt: p.ptr(rec.MembersAddedAt),
	}
	return l, p.err
}

func deliveryKey(deliveryID string) itemKey {
	return itemKey{PK: "DELIVERY#" + deliveryID, SK: skDelivery}
}

func outboxPK(status domain.DeliveryStatus) string { return "OUTBOX#" + string(status) }

// outboxListed says whether deliveries of a status are listed in gsi1: the
// ones something looks for (the sweep, the local stack's re-queue, the dead
// letters of every SP). Delivered and discarded ones are read by id only;
// leaving them out halves the index writes of the one write most
// deliveries end with, and spares the index a partition that every
// delivery would write to.
func outboxListed(status domain.DeliveryStatus) bool {
	switch status {
	case domain.DeliveryPending, domain.DeliverySent, domain.DeliveryFailed:
		return true
	}
	return false
}

func spLinkKey(kind domain.ResourceKind, localID int64, spID string) itemKey {
	return itemKey{PK: spLinkPK(kind, localID), SK: "SP#" + spID}
}

func spLinkPK(kind domain.ResourceKind, localID int64) string {
	return "SPLINK#" + string(kind) + "#" + id(localID)
}
