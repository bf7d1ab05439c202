package lambdasqs

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

func TestLatestReceiptsKeepsTheLastCopy(t *testing.T) {
	msgs := []types.Message{
		{MessageId: aws.String("a"), ReceiptHandle: aws.String("a-old")},
		{MessageId: aws.String("b"), ReceiptHandle: aws.String("b-1")},
		{MessageId: aws.String("a"), ReceiptHandle: aws.String("a-new")},
	}
	got := latestReceipts(msgs)
	if len(got) != 2 || aws.ToString(got[0].ReceiptHandle) != "b-1" || aws.ToString(got[1].ReceiptHandle) != "a-new" {
		t.Fatalf("latestReceipts = %+v", got)
	}
}

func TestWaitTimeStaysBelowVisibilityTimeout(t *testing.T) {
	tests := []struct {
		wait, visibility, want time.Duration
	}{
		{0, 0, DefaultWaitTime},
		{time.Second, 30 * time.Second, time.Second},
		{time.Second, time.Second, 0},
		{5 * time.Second, 3 * time.Second, 2 * time.Second},
	}
	for _, tc := range tests {
		p := &Poller{WaitTime: tc.wait, VisibilityTimeout: tc.visibility}
		if got := p.waitTime(); got != tc.want {
			t.Errorf("wait %v visibility %v: waitTime = %v, want %v", tc.wait, tc.visibility, got, tc.want)
		}
	}
}
