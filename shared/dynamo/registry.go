package dynamo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
)

// LoadRegistry reads every application and connection (config.Source).
func (s *Store) LoadRegistry(ctx context.Context) (config.Document, error) {
	doc := config.Document{Applications: []config.ApplicationDoc{}, Provisionings: []config.ProvisioningDoc{}}
	in, err := s.partitionQuery("", registryPK, nil)
	if err != nil {
		return doc, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return doc, err
	}
	for _, it := range items {
		var rec registryRecord
		if err := unmarshal(it, &rec); err != nil {
			return doc, err
		}
		switch rec.Entity {
		case entityRegApp:
			var a config.ApplicationDoc
			if err := json.Unmarshal([]byte(rec.Doc), &a); err != nil {
				return doc, fmt.Errorf("application item %s: %w", rec.SK, err)
			}
			doc.Applications = append(doc.Applications, a)
		case entityRegConn:
			var p config.ProvisioningDoc
			if err := json.Unmarshal([]byte(rec.Doc), &p); err != nil {
				return doc, fmt.Errorf("connection item %s: %w", rec.SK, err)
			}
			doc.Provisionings = append(doc.Provisionings, p)
		}
	}
	return doc, nil
}

// LoadConnection reads one connection item (config.Source).
func (s *Store) LoadConnection(ctx context.Context, id string) (config.ProvisioningDoc, bool, error) {
	var p config.ProvisioningDoc
	found, err := s.registryDoc(ctx, connectionKey(id), &p)
	return p, found, err
}

// LoadApplication reads one application item.
func (s *Store) LoadApplication(ctx context.Context, manageID string) (config.ApplicationDoc, bool, error) {
	var a config.ApplicationDoc
	found, err := s.registryDoc(ctx, applicationKey(manageID), &a)
	return a, found, err
}

func (s *Store) registryDoc(ctx context.Context, key itemKey, v any) (bool, error) {
	var rec registryRecord
	found, err := s.getItem(ctx, key, &rec)
	if err != nil || !found {
		return false, err
	}
	if err := json.Unmarshal([]byte(rec.Doc), v); err != nil {
		return false, fmt.Errorf("registry item %s: %w", key.SK, err)
	}
	return true, nil
}

// SaveApplication creates (create true; domain.ErrConflict-like 409 when it
// exists) or replaces (404 when absent) an application, with its change,
// in one transaction. A new application gets the next application id.
func (s *Store) SaveApplication(ctx context.Context, a config.ApplicationDoc, create bool, ch config.Change) (config.ApplicationDoc, error) {
	if create && a.ID == 0 {
		id, err := s.NextIDs(ctx, applicationIDSeq, 1)
		if err != nil {
			return a, err
		}
		a.ID = id
	}
	return a, s.saveRegistryDoc(ctx, applicationKey(a.ManageID), entityRegApp, a, create, ch)
}

// SaveConnection creates or replaces a connection, like SaveApplication.
func (s *Store) SaveConnection(ctx context.Context, p config.ProvisioningDoc, create bool, ch config.Change) error {
	return s.saveRegistryDoc(ctx, connectionKey(p.ID), entityRegConn, p, create, ch)
}

// DeleteApplication removes an application with its change; 404 when absent.
func (s *Store) DeleteApplication(ctx context.Context, manageID string, ch config.Change) error {
	return s.deleteRegistryDoc(ctx, applicationKey(manageID), ch)
}

// DeleteConnection removes a connection with its change; 404 when absent.
func (s *Store) DeleteConnection(ctx context.Context, id string, ch config.Change) error {
	return s.deleteRegistryDoc(ctx, connectionKey(id), ch)
}

func (s *Store) saveRegistryDoc(ctx context.Context, key itemKey, entity string, v any, create bool, ch config.Change) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	rec := registryRecord{itemKey: key, Entity: entity, Doc: string(b), UpdatedAt: formatTime(ch.At), UpdatedBy: ch.By}
	t := s.newTxn()
	if create {
		t.putNew(rec, func(context.Context) error { return domain.Conflictf("%s %q already exists", ch.Kind, ch.ID) })
	} else {
		t.putIf(rec, expression.AttributeExists(expression.Name(attrPK)),
			func(context.Context) error { return domain.NotFoundf("no %s %q", ch.Kind, ch.ID) })
	}
	s.addChange(t, ch)
	return t.commit(ctx)
}

func (s *Store) deleteRegistryDoc(ctx context.Context, key itemKey, ch config.Change) error {
	t := s.newTxn()
	cond := expression.AttributeExists(expression.Name(attrPK))
	t.delete(key, &cond, func(context.Context) error { return domain.NotFoundf("no %s %q", ch.Kind, ch.ID) })
	s.addChange(t, ch)
	return t.commit(ctx)
}

func (s *Store) addChange(t *txn, ch config.Change) {
	b, err := json.Marshal(ch)
	if err != nil {
		t.fail(err)
		return
	}
	t.put(registryChangeRecord{itemKey: itemKey{PK: registryAuditPK, SK: formatTime(ch.At) + "#" + requestToken()[:8]},
		Entity: entityRegChange, Change: string(b)})
}

// RegistryChanges returns the newest changes of the registry, newest first.
func (s *Store) RegistryChanges(ctx context.Context, limit int) ([]config.Change, error) {
	in, err := s.partitionQuery("", registryAuditPK, nil)
	if err != nil {
		return nil, err
	}
	in.ScanIndexForward = aws.Bool(false)
	in.Limit = aws.Int32(int32(limit))
	in.TableName = aws.String(s.table)
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("query registry changes: %w", err)
	}
	changes := make([]config.Change, 0, len(out.Items))
	for _, it := range out.Items {
		var rec registryChangeRecord
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		var ch config.Change
		if err := json.Unmarshal([]byte(rec.Change), &ch); err != nil {
			return nil, err
		}
		changes = append(changes, ch)
	}
	return changes, nil
}
