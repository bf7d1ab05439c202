package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// A role moved to another organization takes its members with it: their
// organization items (USER#<id>/ORG#<guid>) list the role under its new
// organization. A role's members do not fit in its transaction (a role may
// have 50,000), so they are rebuilt member by member after it
// (RebuildUserOrganizations, each its own transaction), in steps the
// caller bounds (MoveRoleMembers: a request does a few, a job the rest).
// So that a crash in between converges rather than leaving the members
// listed in the old organization until someone notices, the role's
// transaction marks the role organizationsPending, and the mark is
// cleared only after the last member is rebuilt. A mark left behind is
// finished by the next UpdateRole of the role (its caller moves the
// members again from the start) and by RepairIndexes; a rebuild is
// idempotent, so finishing twice does no harm.

const attrOrganizationsPending = "organizationsPending"

// roleMovePage is how many members one step of a move lists at a time; a
// step stops between pages only.
const roleMovePage = 100

// roleMoveCursor is where a move of a role's members goes on: the role's
// version the move is for (a later update of the role starts its own move
// from the start, and this one gives way) and the members index's token.
type roleMoveCursor struct {
	Version int64  `json:"v"`
	Token   string `json:"t,omitempty"`
}

// MoveRoleMembers implements domain.RoleStore: it rebuilds the
// organization items of the members of a role marked organizationsPending,
// from cursor ("" is the start), page by page (gsi1 ROLE#<id> UR#), until
// it has rebuilt budget members (0: no bound) or stopAt has passed (zero:
// none); next continues it. When the last member is done it clears the
// mark at the version the move is for and answers next "". A role not
// marked, gone, or changed since the cursor was made (its update moves the
// members itself) answers "" at once.
func (s *Store) MoveRoleMembers(ctx context.Context, roleID int64, cursor string, budget int, stopAt time.Time) (next string, err error) {
	var rec roleRecord
	found, err := s.getItem(ctx, roleKey(roleID), &rec)
	if err != nil || !found || !rec.OrganizationsPending {
		return "", err
	}
	at := roleMoveCursor{Version: rec.Version}
	if cursor != "" {
		if at, err = decodeRoleMoveCursor(cursor); err != nil {
			return "", err
		}
		if at.Version != rec.Version {
			return "", nil
		}
	}
	for rebuilt := 0; ; {
		if (budget > 0 && rebuilt >= budget) || (!stopAt.IsZero() && !time.Now().Before(stopAt)) {
			return encodeRoleMoveCursor(at)
		}
		size := roleMovePage
		if budget > 0 {
			size = min(size, budget-rebuilt)
		}
		page, token, err := s.ListUserRolesOfRole(ctx, roleID, at.Token, size)
		if err != nil {
			return "", err
		}
		for _, ur := range page {
			if err := s.rebuildMovedMember(ctx, ur.UserID); err != nil {
				return "", err
			}
		}
		rebuilt += len(page)
		if token == "" {
			return "", s.clearRoleMove(ctx, roleID, at.Version)
		}
		at.Token = token
	}
}

// rebuildMovedMember rebuilds one member's organization items, read again
// once when a membership of the user changed meanwhile.
func (s *Store) rebuildMovedMember(ctx context.Context, userID int64) error {
	err := s.RebuildUserOrganizations(ctx, userID)
	if errors.Is(err, domain.ErrVersionConflict) {
		err = s.RebuildUserOrganizations(ctx, userID)
	}
	return err
}

// stepRoleMove carries at most budget members of a role marked mid-move
// at version, from the start (the index repair); next goes on with the
// rest.
func (s *Store) stepRoleMove(ctx context.Context, roleID, version int64, budget int) (next string, err error) {
	cursor, err := encodeRoleMoveCursor(roleMoveCursor{Version: version})
	if err != nil {
		return "", err
	}
	return s.MoveRoleMembers(ctx, roleID, cursor, budget, time.Time{})
}

// clearRoleMove removes the mark if the role is still at version: an
// update since carried the mark on and moves the members itself.
func (s *Store) clearRoleMove(ctx context.Context, roleID, version int64) error {
	expr, err := expression.NewBuilder().
		WithUpdate(expression.Remove(expression.Name(attrOrganizationsPending))).
		WithCondition(versionIs(version)).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: roleKey(roleID).attributes(),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("clear the move of role %d: %w", roleID, err)
	}
	return nil
}

func encodeRoleMoveCursor(c roleMoveCursor) (string, error) {
	b, err := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b), err
}

func decodeRoleMoveCursor(s string) (roleMoveCursor, error) {
	var c roleMoveCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Version <= 0 {
		return roleMoveCursor{}, fmt.Errorf("role move cursor %q is not one this store made", s)
	}
	return c, nil
}
