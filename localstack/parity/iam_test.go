package parity

import "testing"

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
