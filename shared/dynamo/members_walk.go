package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// A walk of a role's members (the API's members pages, U9 and U10 paged)
// goes on from a page token: the position after the last member of the
// page before, in the index the walk reads, so that every page costs the
// same at any depth (a page number costs the members before it). The
// token names its role, its walk (a side, or every member) and its
// direction, and is accepted only for the same: another role's token, a
// token of the other side or direction, or a mangled one is Invalid. A
// token is a position, not a permission: it is only ever read inside the
// role's own partition, after the caller may see the role's members, and
// any position there (a forged one too) only starts a page of members the
// caller may see anyway. It holds the sort keys (sort name and user id)
// of those last members, as the page itself does: it is never logged.

// Walks of a role's members, as a token names them.
const (
	walkGuests    = "guests"
	walkNonGuests = "nonGuests"
	walkAll       = "all"
)

func walkOfSide(guests bool) string {
	if guests {
		return walkGuests
	}
	return walkNonGuests
}

// maxIndexSortKeyBytes is the most a sort key of an index may hold.
const maxIndexSortKeyBytes = 1024

// memberWalkToken is a page token of a walk: After has one position per
// Query the walk reads (the side's classes; one for every member), each
// the index sort key of the last member of that Query passed so far, ""
// when none was.
type memberWalkToken struct {
	Role  int64    `json:"role"`
	Walk  string   `json:"walk"`
	Desc  bool     `json:"desc,omitempty"`
	After []string `json:"after"`
}

// encodeMemberWalk is the token of the page that starts after the
// positions.
func encodeMemberWalk(roleID int64, walk string, desc bool, after []string) (string, error) {
	raw, err := json.Marshal(memberWalkToken{Role: roleID, Walk: walk, Desc: desc, After: after})
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// decodeMemberWalk reads a token for the walk of a role in a direction,
// whose positions are sort keys starting with prefixes, one each:
// anything else is Invalid.
func decodeMemberWalk(encoded string, roleID int64, walk string, desc bool, prefixes []string) ([]string, error) {
	invalid := domain.Invalidf("invalid pageToken: it belongs to no page of this list; start again without it")
	raw, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return nil, invalid
	}
	var token memberWalkToken
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&token); err != nil || dec.More() {
		return nil, invalid
	}
	if token.Role != roleID || token.Walk != walk || token.Desc != desc || len(token.After) != len(prefixes) {
		return nil, invalid
	}
	started := false
	for i, sk := range token.After {
		if sk == "" {
			continue
		}
		if _, ok := memberOfSortKey(sk, prefixes[i]); !ok {
			return nil, invalid
		}
		started = true
	}
	if !started {
		return nil, invalid
	}
	return token.After, nil
}

// memberOfSortKey is the user id a members index sort key ends with
// (prefix, a sort name, "#", the id), if sk is one.
func memberOfSortKey(sk, prefix string) (int64, bool) {
	if len(sk) > maxIndexSortKeyBytes || !strings.HasPrefix(sk, prefix) {
		return 0, false
	}
	cut := strings.LastIndexByte(sk, '#')
	if cut < len(prefix) {
		return 0, false
	}
	userID, err := strconv.ParseInt(sk[cut+1:], 10, 64)
	if err != nil || userID < 0 || id(userID) != sk[cut+1:] {
		return 0, false
	}
	return userID, true
}

// walkStartKey is the ExclusiveStartKey after the membership at sort key
// sk of a role's index (whose key attributes are indexPK and indexSK: gsi1
// or gsi4): its table key follows from the role and the user id the sort
// key ends with (decodeMemberWalk checked it).
func walkStartKey(roleID int64, sk, indexPK, indexSK string) map[string]types.AttributeValue {
	userID, _ := memberOfSortKey(sk, prefixUserRole)
	key := userRoleKey(userID, roleID)
	return map[string]types.AttributeValue{
		attrPK:  &types.AttributeValueMemberS{Value: key.PK},
		attrSK:  &types.AttributeValueMemberS{Value: key.SK},
		indexPK: &types.AttributeValueMemberS{Value: membersIndexPK(roleID)},
		indexSK: &types.AttributeValueMemberS{Value: sk},
	}
}
