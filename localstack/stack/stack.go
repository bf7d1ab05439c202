// Package stack is the embedded local stack: the whole service in one Go
// process on one port. It starts the local AWS substitutes (DynamoDB, SQS,
// SES v2), creates the table and queues, serves every API function's handler
// as API Gateway would route them, polls the provisioning queue the way
// Lambda's event source mapping does, and runs a sample SCIM SP and a
// development OIDC provider so that a newcomer sees the whole path work.
//
// With AWS_ENDPOINT_URL (or the per-service AWS_ENDPOINT_URL_* variables)
// set, it uses those endpoints instead of starting substitutes: LocalStack,
// or a real AWS account.
package stack

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/localstack/lambdasqs"
	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// Options tune the stack; zero values are the defaults of `make run`.
type Options struct {
	// Addr to listen on; default 127.0.0.1:$PORT (PORT default 8080).
	Addr string
	// Clock replaces wall time (tests).
	Clock domain.Clock
	// PollInterval of the provisioning queue's long poll.
	PollInterval time.Duration
	// VisibilityTimeout of received messages: how long a failed delivery
	// waits before it is retried.
	VisibilityTimeout time.Duration
	// SweepInterval of the outbox sweep; 0 = every 30 s.
	SweepInterval time.Duration
	// MaxReceiveCount of the provisioning queue; 0 = substitutes.MaxReceiveCount.
	MaxReceiveCount int
	// Concurrency is the most provisioner invocations at once (the
	// function's reserved concurrency); 0 = lambdasqs.DefaultConcurrency.
	Concurrency int
	// JobInterval of the expiry and cleanup jobs; 0 = every minute, negative
	// = never (tests run them with RunJob).
	JobInterval time.Duration
	// CountAWS, if set, counts every AWS request of the stack's clients
	// (benchmarks report DynamoDB and SQS requests per delivery).
	CountAWS *AWSCalls
}

// Stack is a running local stack.
type Stack struct {
	URL            string
	BootstrapToken string
	App            *app.App
	SP             *scimsp.SP
	IdP            *idp.IdP
	SES            *substitutes.SES
	Poller         *lambdasqs.Poller

	clock  func() time.Time
	server *http.Server

	runCtx       context.Context
	newPoller    func() *lambdasqs.Poller
	consumerMu   sync.Mutex
	stopConsumer context.CancelFunc
	consumerDone chan struct{}
	cancel       context.CancelFunc
	closers      []func()
}

// sampleSPTokenEnv holds the sample SP's bearer token, referenced from the
// seeded configuration document as a secret reference (never inline).
const sampleSPTokenEnv = "SAMPLE_SP_TOKEN"

// Start brings the stack up. Call Close when done.
func Start(ctx context.Context, opts Options) (_ *Stack, err error) {
	s := &Stack{clock: opts.Clock}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	ln, err := net.Listen("tcp", listenAddr(opts.Addr))
	if err != nil {
		return nil, err
	}
	s.URL = "http://" + ln.Addr().String()

	if err := s.startSubstitutes(ctx); err != nil {
		return nil, err
	}
	setDefault("TABLE_NAME", "invite")
	setDefault("PUBLIC_BASE_URL", s.URL)
	setDefault("MAIL_FROM", "invite@localhost")
	setDefault("OIDC_ISSUER", s.URL+"/idp")
	setDefault("OIDC_AUDIENCE", "invite")
	s.BootstrapToken = setDefault("BOOTSTRAP_API_TOKEN", randomToken())
	spToken := setDefault(sampleSPTokenEnv, randomToken())
	if os.Getenv("APPLICATIONS_CONFIG") == "" && os.Getenv("APPLICATIONS_CONFIG_FILE") == "" {
		os.Setenv("APPLICATIONS_CONFIG", SampleApplications(s.URL+"/scim-sp"))
	}

	s.SP = scimsp.New(scimsp.Options{BearerToken: spToken})
	if s.IdP, err = idp.New(os.Getenv("OIDC_ISSUER")); err != nil {
		return nil, err
	}

	settings, err := app.SettingsFromEnv()
	if err != nil {
		return nil, err
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	if opts.CountAWS != nil {
		cfg.HTTPClient = countingClient{inner: awshttp.NewBuildableClient(), calls: opts.CountAWS}
	}
	registry, err := config.Load()
	if err != nil {
		return nil, err
	}
	if err := dynamo.CreateTable(ctx, awsDynamo(cfg), settings.TableName); err != nil {
		return nil, fmt.Errorf("create table: %w", err)
	}
	settings.MaxReceiveCount = cmp.Or(opts.MaxReceiveCount, substitutes.MaxReceiveCount)
	queueURL, dlqURL, err := substitutes.CreateQueues(ctx, awsSQS(cfg), "invite-scim", settings.MaxReceiveCount)
	if err != nil {
		return nil, fmt.Errorf("create queues: %w", err)
	}
	settings.QueueURL, settings.DeadLetterURL = queueURL, dlqURL
	if s.App, err = app.New(ctx, settings, cfg, registry, opts.Clock); err != nil {
		return nil, err
	}

	mux := http.NewServeMux()
	mux.Handle("/idp/", http.StripPrefix("/idp", s.IdP.Handler()))
	mux.Handle("/scim-sp/", http.StripPrefix("/scim-sp", s.SP.Handler()))
	mux.HandleFunc("GET /mail", s.mailPage)
	mux.HandleFunc("POST /local/jobs/{name}", s.serveJob)
	mux.HandleFunc("POST /local/events/ses", s.serveSESEvent)
	mux.Handle("/", s.App.API.Local())
	s.server = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.server.Serve(ln) }()

	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.runCtx = runCtx
	s.newPoller = func() *lambdasqs.Poller {
		return &lambdasqs.Poller{Client: s.App.SQS, QueueURL: queueURL, Handler: s.App.Provisioner.HandleSQS,
			VisibilityTimeout: orDefault(opts.VisibilityTimeout, 5*time.Second), WaitTime: orDefault(opts.PollInterval, time.Second),
			Concurrency: opts.Concurrency, Logger: s.App.Logger}
	}
	if s.App.Provisioner.Backoff != nil {
		s.App.Provisioner.Backoff = pollerAwareBackoff{inner: s.App.Provisioner.Backoff, stack: s}
	}
	s.startConsumer()
	go s.every(runCtx, orDefault(opts.SweepInterval, 30*time.Second), "outbox-sweep")
	if opts.JobInterval >= 0 {
		go s.every(runCtx, orDefault(opts.JobInterval, time.Minute), "expiry", "cleanup")
		go s.every(runCtx, time.Hour, "reconcile")
	}
	return s, nil
}

// startSubstitutes starts DynamoDB, SQS and SES substitutes for every
// service without an endpoint in the environment.
func (s *Stack) startSubstitutes(ctx context.Context) error {
	external := os.Getenv("AWS_ENDPOINT_URL") != ""
	need := func(service string) bool { return !external && os.Getenv("AWS_ENDPOINT_URL_"+service) == "" }
	if need("DYNAMODB") || need("SQS") || need("SESV2") {
		setDefault("AWS_REGION", "eu-west-1")
		setDefault("AWS_ACCESS_KEY_ID", "local")
		setDefault("AWS_SECRET_ACCESS_KEY", "local")
	}
	if need("DYNAMODB") {
		ddb, err := substitutes.StartDynamoDB("")
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() { _ = ddb.Close() })
		os.Setenv("AWS_ENDPOINT_URL_DYNAMODB", ddb.URL)
	}
	if need("SQS") || need("SESV2") {
		dir, err := substitutes.Dir()
		if err != nil {
			return err
		}
		if err := substitutes.EnsureNodeModules(dir); err != nil {
			return err
		}
	}
	if need("SQS") {
		q, err := substitutes.StartSQS(ctx, "")
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() { _ = q.Close() })
		os.Setenv("AWS_ENDPOINT_URL_SQS", q.URL)
	}
	if need("SESV2") {
		mail, err := substitutes.StartSES(ctx, "")
		if err != nil {
			return err
		}
		s.SES = mail
		s.closers = append(s.closers, func() { _ = mail.Close() })
		os.Setenv("AWS_ENDPOINT_URL_SESV2", mail.URL)
	}
	return nil
}

// mailPage lists the e-mails the SES substitute captured.
func (s *Stack) mailPage(w http.ResponseWriter, r *http.Request) {
	if s.SES == nil {
		http.Error(w, "e-mail goes to a real SES endpoint; nothing is captured here", http.StatusNotFound)
		return
	}
	mails, err := s.SES.Mails(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	type view struct {
		From    string    `json:"from"`
		To      []string  `json:"to"`
		Subject string    `json:"subject"`
		Text    string    `json:"text"`
		HTML    string    `json:"html"`
		SentAt  time.Time `json:"sentAt"`
	}
	out := make([]view, 0, len(mails))
	for _, m := range mails {
		out = append(out, view{From: m.From, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML, SentAt: m.SentAt})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (s *Stack) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// startConsumer runs a fresh poller, as a new Lambda instance would.
func (s *Stack) startConsumer() {
	s.consumerMu.Lock()
	defer s.consumerMu.Unlock()
	ctx, stop := context.WithCancel(s.runCtx)
	done := make(chan struct{})
	p := s.newPoller()
	s.Poller, s.stopConsumer, s.consumerDone = p, stop, done
	go func() {
		defer close(done)
		if err := p.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			s.App.Logger.Error("provisioning poller stopped", "error", err)
		}
	}()
}

// PauseConsumer stops the provisioning consumer (messages stay queued);
// ResumeConsumer starts a fresh one. For benchmarks of the delivery path.
func (s *Stack) PauseConsumer() {
	s.consumerMu.Lock()
	stop, done := s.stopConsumer, s.consumerDone
	s.consumerMu.Unlock()
	stop()
	<-done
}

// ResumeConsumer starts the consumer after PauseConsumer.
func (s *Stack) ResumeConsumer() { s.startConsumer() }

// RestartConsumer kills the provisioning consumer at once, cancelling the
// SCIM calls of the batch in flight as a crashed Lambda would (nothing of
// that batch is deleted from the queue), and starts a fresh one.
func (s *Stack) RestartConsumer() {
	s.consumerMu.Lock()
	stop, done := s.stopConsumer, s.consumerDone
	s.consumerMu.Unlock()
	stop()
	<-done
	if s.App.Provisioner.Backoff != nil {
		s.App.Provisioner.Backoff = pollerAwareBackoff{inner: s.App.Provisioner.Backoff, stack: s}
	}
	s.startConsumer()
}

// Close stops everything the stack started.
func (s *Stack) Close() {
	if s.cancel != nil {
		s.cancel()
		s.consumerMu.Lock()
		done := s.consumerDone
		s.consumerMu.Unlock()
		<-done
	}
	if s.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.server.Shutdown(ctx)
		cancel()
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// SampleApplications is the seeded configuration document: one application
// whose users and groups go to the sample SCIM SP.
func SampleApplications(spBaseURL string) string {
	return fmt.Sprintf(`{
  "applications": [
    {"manageId": "sample-app", "manageType": "SAML20_SP", "name": "Sample application", "landingPage": "https://sample.example.org", "provisionings": ["sample-sp"]}
  ],
  "provisionings": [
    {"id": "sample-sp", "name": "Sample SCIM SP", "baseUrl": %q, "version": "v1", "membership": "PATCH",
     "userIdentifier": "eduPersonPrincipalName", "auth": {"method": "bearer", "token": "env:%s"}}
  ]
}`, spBaseURL, sampleSPTokenEnv)
}

func listenAddr(addr string) string {
	if addr != "" {
		return addr
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	return "127.0.0.1:" + port
}

// setDefault sets an environment variable unless it is set, and returns
// its value.
func setDefault(key, value string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	os.Setenv(key, value)
	return value
}

func randomToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
