package parity

import (
	"fmt"
	"strings"
	"testing"
)

// The checker allows only what a statement allows: deny by default, an
// explicit Deny wins, wildcards span slashes as IAM's do, and LeadingKeys
// conditions hold for every key of the request.
func TestPolicyAllows(t *testing.T) {
	table := "arn:aws:dynamodb:eu-west-1:1:table/t"
	p := Policy{Statements: []Statement{
		{Effect: "Allow", Actions: []string{"dynamodb:GetItem", "dynamodb:Query"}, Resources: []string{table, table + "/index/*"}},
		{Effect: "Allow", Actions: []string{"dynamodb:PutItem"}, Resources: []string{table},
			Conditions: map[string]map[string][]string{"ForAllValues:StringLike": {"dynamodb:LeadingKeys": {"MAIL#*", "JOB#sweep*"}}}},
		{Effect: "Allow", Actions: []string{"secretsmanager:*"}, Resources: []string{"arn:aws:secretsmanager:eu-west-1:1:secret:invite/conn/*"}},
		{Effect: "Deny", Actions: []string{"secretsmanager:DeleteSecret"}, Resources: []string{"*"}},
		{Effect: "Allow", Actions: []string{"sqs:SendMessage"}, Resources: []string{"arn:aws:sqs:eu-west-1:1:q"},
			Conditions: map[string]map[string][]string{"NumericLessThan": {"aws:EpochTime": {"1"}}}},
	}}
	keys := func(k ...string) map[string][]string { return map[string][]string{"dynamodb:LeadingKeys": k} }
	tests := []struct {
		name string
		call Call
		want bool
	}{
		{"allowed action and resource", Call{Action: "dynamodb:GetItem", Resource: table}, true},
		{"an index by wildcard", Call{Action: "dynamodb:Query", Resource: table + "/index/gsi1"}, true},
		{"an action not granted", Call{Action: "dynamodb:Scan", Resource: table}, false},
		{"another table", Call{Action: "dynamodb:GetItem", Resource: table + "2"}, false},
		{"a write in an allowed partition", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("MAIL#1")}, true},
		{"a job-run item", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("JOB#sweep")}, true},
		{"a write elsewhere", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("SESSION#x")}, false},
		{"a batch with one key elsewhere", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("MAIL#1", "USER#2")}, false},
		{"action wildcard across a slash in the resource", Call{Action: "secretsmanager:PutSecretValue", Resource: "arn:aws:secretsmanager:eu-west-1:1:secret:invite/conn/sp-a-AbCdEf"}, true},
		{"an explicit deny wins", Call{Action: "secretsmanager:DeleteSecret", Resource: "arn:aws:secretsmanager:eu-west-1:1:secret:invite/conn/sp-a-AbCdEf"}, false},
		{"an unknown condition operator denies", Call{Action: "sqs:SendMessage", Resource: "arn:aws:sqs:eu-west-1:1:q"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Allows(tc.call); got != tc.want {
				t.Errorf("Allows(%+v) = %v, want %v", tc.call, got, tc.want)
			}
		})
	}
}

// A Query is authorized with the partition key of its key condition,
// through attribute names, on the table or the index it reads.
func TestQueryCallsCarryTheirPartition(t *testing.T) {
	p := &Proxy{Dep: Deployment{Account: "1", Region: "eu-west-1"}}
	calls, err := p.dynamoCalls("DynamoDB_20120810.Query", map[string]any{
		"TableName": "t", "IndexName": "gsi2", "KeyConditionExpression": "#p = :v AND begins_with(#s, :s)",
		"ExpressionAttributeNames":  map[string]any{"#p": "gsi2pk", "#s": "gsi2sk"},
		"ExpressionAttributeValues": map[string]any{":v": map[string]any{"S": "EMAIL#x"}, ":s": map[string]any{"S": "A"}},
	})
	if err != nil || len(calls) != 1 {
		t.Fatalf("calls %v, %v", calls, err)
	}
	c := calls[0]
	if c.Resource != "arn:aws:dynamodb:eu-west-1:1:table/t/index/gsi2" || c.Keys["dynamodb:LeadingKeys"][0] != "EMAIL#x" {
		t.Errorf("call %+v", c)
	}
}

// Each DynamoDB request becomes the calls IAM authorizes, every item's
// partition key (on an index, the index's) in dynamodb:LeadingKeys.
func TestDynamoCallsCarryEveryPartitionKey(t *testing.T) {
	p := &Proxy{Dep: Deployment{Account: "1", Region: "eu-west-1"}}
	table := "arn:aws:dynamodb:eu-west-1:1:table/t"
	s := func(v string) map[string]any { return map[string]any{"S": v} }
	key := func(pk string) map[string]any { return map[string]any{"pk": s(pk), "sk": s("X")} }
	tests := []struct {
		name, target string
		in           map[string]any
		want         []string // "action resource keys"
	}{
		{"get", "GetItem", map[string]any{"TableName": "t", "Key": key("SESSION#a")},
			[]string{"dynamodb:GetItem " + table + " [SESSION#a]"}},
		{"put names its item's key", "PutItem", map[string]any{"TableName": "t", "Item": key("MAIL#1")},
			[]string{"dynamodb:PutItem " + table + " [MAIL#1]"}},
		{"a batch write is one call with every key", "BatchWriteItem", map[string]any{"RequestItems": map[string]any{"t": []any{
			map[string]any{"PutRequest": map[string]any{"Item": key("SPLINK#USER#1")}},
			map[string]any{"DeleteRequest": map[string]any{"Key": key("USER#2")}},
		}}}, []string{"dynamodb:BatchWriteItem " + table + " [SPLINK#USER#1 USER#2]"}},
		{"a batch get is one call with every key", "BatchGetItem", map[string]any{"RequestItems": map[string]any{"t": map[string]any{
			"Keys": []any{key("USER#1"), key("TOKEN#h")}}}}, []string{"dynamodb:BatchGetItem " + table + " [USER#1 TOKEN#h]"}},
		{"a transaction is one call per item, as its item action", "TransactWriteItems", map[string]any{"TransactItems": []any{
			map[string]any{"Put": map[string]any{"TableName": "t", "Item": key("USER#1")}},
			map[string]any{"ConditionCheck": map[string]any{"TableName": "t", "Key": key("ROLE#2")}},
			map[string]any{"Delete": map[string]any{"TableName": "t", "Key": key("INV#3")}},
		}}, []string{"dynamodb:PutItem " + table + " [USER#1]", "dynamodb:ConditionCheckItem " + table + " [ROLE#2]",
			"dynamodb:DeleteItem " + table + " [INV#3]"}},
		{"a query of the table by its key condition", "Query", map[string]any{"TableName": "t", "KeyConditionExpression": "pk = :p",
			"ExpressionAttributeValues": map[string]any{":p": s("AUDIT#ROLE#1")}}, []string{"dynamodb:Query " + table + " [AUDIT#ROLE#1]"}},
		{"a scan carries no key", "Scan", map[string]any{"TableName": "t"}, []string{"dynamodb:Scan " + table + " []"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls, err := p.dynamoCalls("DynamoDB_20120810."+tc.target, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.Action+" "+c.Resource+" "+fmt.Sprint(c.Keys["dynamodb:LeadingKeys"]))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// The statements the stack writes, evaluated on requests of item kinds
// inside and outside them: a read, an index query or a write of another
// kind is denied, and a Scan, which carries no key, is not granted.
func TestLeadingKeysOfTheStackHold(t *testing.T) {
	table := "arn:aws:dynamodb:eu-west-1:1:table/t"
	like := func(keys ...string) map[string]map[string][]string {
		return map[string]map[string][]string{"ForAllValues:StringLike": {"dynamodb:LeadingKeys": keys}}
	}
	p := Policy{Statements: []Statement{
		{Effect: "Allow", Actions: []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:ConditionCheckItem"},
			Resources: []string{table}, Conditions: like("MAIL#*", "REGISTRY")},
		{Effect: "Allow", Actions: []string{"dynamodb:Query"}, Resources: []string{table + "/index/*"}, Conditions: like("MAILBOX#*")},
		{Effect: "Allow", Actions: []string{"dynamodb:PutItem"}, Resources: []string{table}, Conditions: like("MAIL#*")},
	}}
	keys := func(k ...string) map[string][]string { return map[string][]string{"dynamodb:LeadingKeys": k} }
	tests := []struct {
		name string
		call Call
		want bool
	}{
		{"read of its kind", Call{Action: "dynamodb:GetItem", Resource: table, Keys: keys("MAIL#1")}, true},
		{"read of a whole key", Call{Action: "dynamodb:Query", Resource: table, Keys: keys("REGISTRY")}, true},
		{"a whole key is not a prefix", Call{Action: "dynamodb:Query", Resource: table, Keys: keys("REGISTRYAUDIT")}, false},
		{"read of a session", Call{Action: "dynamodb:GetItem", Resource: table, Keys: keys("SESSION#x")}, false},
		{"a batch read with one token hash", Call{Action: "dynamodb:BatchGetItem", Resource: table, Keys: keys("MAIL#1", "TOKEN#h")}, false},
		{"query of its index partition", Call{Action: "dynamodb:Query", Resource: table + "/index/gsi1", Keys: keys("MAILBOX#pending")}, true},
		{"query of another index partition", Call{Action: "dynamodb:Query", Resource: table + "/index/gsi1", Keys: keys("PERSONSESSIONS#s")}, false},
		{"a table kind is not an index partition", Call{Action: "dynamodb:Query", Resource: table + "/index/gsi1", Keys: keys("MAIL#1")}, false},
		{"write of another kind", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("USER#1")}, false},
		{"write of its kind", Call{Action: "dynamodb:PutItem", Resource: table, Keys: keys("MAIL#1")}, true},
		{"a scan", Call{Action: "dynamodb:Scan", Resource: table}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Allows(tc.call); got != tc.want {
				t.Errorf("Allows(%+v) = %v, want %v", tc.call, got, tc.want)
			}
		})
	}
}
