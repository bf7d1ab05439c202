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
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/localstack/lambdasqs"
	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/secrets"
	"github.com/edu-invite/invite/shared/web"
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
	// LogOutput receives the service's JSON log lines; nil is standard output.
	LogOutput io.Writer
	// Applications is an applications document imported into the table at
	// start, through the same import as the API's; "" imports the sample
	// application (SampleApplications).
	Applications string
	// SecretsDir keeps the Secrets Manager emulator's data on disk; ""
	// keeps it beside the table's (DataDir/secrets), or in memory when
	// DataDir is "" too.
	SecretsDir string
	// DataDir keeps DynamoDB Local's tables and the sample SCIM SP's state,
	// so that both survive a restart (`make run`: .local/data). "" keeps
	// them in memory, on the process's shared DynamoDB Local (tests).
	DataDir string
	// CountAWS, if set, counts every AWS request of the stack's clients
	// (benchmarks report DynamoDB and SQS requests per delivery).
	CountAWS *AWSCalls
}

// Stack is a running local stack.
type Stack struct {
	URL            string
	BootstrapToken string
	// BootstrapTokenChosen: the token came from BOOTSTRAP_API_TOKEN, and
	// the banner does not repeat it.
	BootstrapTokenChosen bool
	App                  *app.App
	SP                   *scimsp.SP
	IdP                  *idp.IdP
	SES                  *substitutes.SES
	Secrets              *substitutes.SecretsManager
	Poller               *lambdasqs.Poller

	clock  func() time.Time
	server *http.Server

	runCtx       context.Context
	newPoller    func() *lambdasqs.Poller
	consumerMu   sync.Mutex
	stopConsumer context.CancelFunc
	consumerDone chan struct{}
	cancel       context.CancelFunc
	closers      []func()
	// substituted names the AWS services this stack substitutes, with
	// where their data is kept (see Banner).
	substituted map[string]string
	sqsStarted  bool // the queue is the in-memory substitute, empty at start
}

// sampleSPTokenEnv holds the sample SP's bearer token, referenced from the
// seeded configuration document as a secret reference (never inline).
const sampleSPTokenEnv = "SAMPLE_SP_TOKEN"

// webClientSecretEnv holds the pages' OIDC client secret at the
// development IdP, referenced as OIDC_CLIENT_SECRET=env:… like any secret.
const webClientSecretEnv = "LOCAL_OIDC_CLIENT_SECRET"

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

	if err := s.startSubstitutes(ctx, opts); err != nil {
		return nil, err
	}
	setDefault("TABLE_NAME", "invite")
	setDefault("PUBLIC_BASE_URL", s.URL)
	setDefault("MAIL_FROM", "invite@localhost")
	setDefault("OIDC_ISSUER", s.URL+"/idp")
	setDefault("OIDC_AUDIENCE", "invite")
	setDefault("OIDC_CLIENT_ID", "invite-web")
	setDefault("OIDC_CLIENT_SECRET", "env:"+webClientSecretEnv)
	webClientSecret := setDefault(webClientSecretEnv, randomToken())
	// A token the operator chose is never printed (it may be one they use
	// elsewhere); only a generated one is shown on the banner.
	s.BootstrapTokenChosen = strings.TrimSpace(os.Getenv("BOOTSTRAP_API_TOKEN")) != ""
	s.BootstrapToken = setDefault("BOOTSTRAP_API_TOKEN", randomToken())
	spToken := setDefault(sampleSPTokenEnv, randomToken())
	// The sample SP listens on this machine and speaks plain http: the
	// operator's switches open exactly that, as they would an internal SP
	// (shared/outbound). Its token, and any other local SP's, is read from
	// variables starting with SAMPLE_SP_TOKEN, never from the rest of the
	// environment; hand-made SP secrets under the stack's invite/sp/ as in AWS.
	setDefault(outbound.EnvAllowedAddresses, "127.0.0.1, ::1")
	setDefault(outbound.EnvAllowHTTP, "true")
	setDefault(secrets.EnvConnectionReferences, "env:"+sampleSPTokenEnv+", "+secrets.DefaultConnectionReferences)
	applications := opts.Applications
	if applications == "" {
		applications = SampleApplications(s.URL+"/scim-sp", s.URL+sampleLogoPath)
	}

	s.SP = scimsp.New(scimsp.Options{BearerToken: spToken})
	spHandler := s.SP.Handler()
	if opts.DataDir != "" {
		// The SP keeps its state beside the table, so that after a restart
		// the service's view and the SP's agree.
		spState := filepath.Join(opts.DataDir, "scim-sp.json")
		if err := s.SP.Load(spState); err != nil {
			return nil, err
		}
		spHandler = s.SP.PersistentHandler(spState)
	}
	if s.IdP, err = idp.New(os.Getenv("OIDC_ISSUER")); err != nil {
		return nil, err
	}
	s.IdP.RegisterClient(os.Getenv("OIDC_CLIENT_ID"), idp.Client{Secret: webClientSecret,
		RedirectURIs: []string{strings.TrimRight(os.Getenv("PUBLIC_BASE_URL"), "/") + "/login/callback"}})

	settings, err := app.SettingsFromEnv()
	if err != nil {
		return nil, err
	}
	cfg, err := app.LoadAWSConfig(ctx)
	if err != nil {
		return nil, err
	}
	if opts.CountAWS != nil {
		cfg.HTTPClient = countingClient{inner: awshttp.NewBuildableClient(), calls: opts.CountAWS}
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
	settings.LogOutput = opts.LogOutput
	if s.App, err = app.New(ctx, settings, cfg, opts.Clock); err != nil {
		return nil, err
	}
	if err := s.importApplications(ctx, applications); err != nil {
		return nil, err
	}
	// Lines logged through slog's default (the API's error lines) go to
	// the same JSON logger as the rest, with the correlation id.
	previous := slog.Default()
	slog.SetDefault(s.App.Logger)
	s.closers = append(s.closers, func() { slog.SetDefault(previous) })
	if s.sqsStarted && opts.DataDir != "" {
		if err := s.requeue(ctx); err != nil {
			return nil, err
		}
	}

	mux := http.NewServeMux()
	mux.Handle("/idp/", http.StripPrefix("/idp", s.IdP.Handler()))
	mux.Handle("/scim-sp/", http.StripPrefix("/scim-sp", spHandler))
	mux.HandleFunc("GET /mail", s.mailPage)
	mux.HandleFunc("GET "+sampleLogoPath, serveSampleLogo)
	mux.HandleFunc("POST /local/jobs/{name}", s.serveJob)
	mux.HandleFunc("POST /local/events/ses", s.serveSESEvent)
	pages := s.App.Pages.Handler()
	for _, pattern := range web.Mounts {
		mux.Handle(pattern, pages)
	}
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

// importApplications loads the applications document into the table
// through the service's import (as POST /api/v1/manage/registry/import
// does) and reads the registry.
func (s *Stack) importApplications(ctx context.Context, document string) error {
	dec := json.NewDecoder(strings.NewReader(document))
	dec.DisallowUnknownFields()
	var doc config.Document
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("applications document: %w", err)
	}
	seeder := &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "local-stack"}
	if _, err := s.App.Service.ImportRegistry(ctx, seeder, doc); err != nil {
		return fmt.Errorf("import applications: %w", err)
	}
	return s.App.Registry.Load(ctx)
}

// startSubstitutes starts DynamoDB, SQS, SES and Secrets Manager
// substitutes for every service without an endpoint in the environment.
func (s *Stack) startSubstitutes(ctx context.Context, opts Options) error {
	external := os.Getenv("AWS_ENDPOINT_URL") != ""
	need := func(service string) bool { return !external && os.Getenv("AWS_ENDPOINT_URL_"+service) == "" }
	if need("DYNAMODB") || need("SQS") || need("SESV2") || need("SECRETS_MANAGER") {
		setDefault("AWS_REGION", "eu-west-1")
		setDefault("AWS_ACCESS_KEY_ID", "local")
		setDefault("AWS_SECRET_ACCESS_KEY", "local")
	}
	s.substituted = map[string]string{}
	if need("DYNAMODB") {
		ddb, err := startDynamoDB(ctx, opts.DataDir)
		if err != nil {
			return err
		}
		s.substituted["DYNAMODB"] = "in memory of this process's DynamoDB Local: gone when the stack stops"
		if opts.DataDir != "" {
			s.closers = append(s.closers, func() { _ = ddb.Close() })
			s.substituted["DYNAMODB"] = filepath.Join(opts.DataDir, "dynamodb")
		}
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
		s.substituted["SQS"] = "in memory of the local-aws-sqs process"
	}
	if need("SECRETS_MANAGER") {
		if opts.SecretsDir == "" && opts.DataDir != "" {
			opts.SecretsDir = filepath.Join(opts.DataDir, "secrets")
		}
		sm, err := substitutes.StartSecretsManager("", opts.SecretsDir)
		if err != nil {
			return err
		}
		s.Secrets = sm
		s.closers = append(s.closers, func() { _ = sm.Close() })
		os.Setenv("AWS_ENDPOINT_URL_SECRETS_MANAGER", sm.URL)
		s.substituted["SECRETS_MANAGER"] = "in memory of the stack"
		if opts.SecretsDir != "" {
			s.substituted["SECRETS_MANAGER"] = opts.SecretsDir
		}
		s.sqsStarted = true
	}
	if need("SESV2") {
		mail, err := substitutes.StartSES(ctx, "")
		if err != nil {
			return err
		}
		s.SES = mail
		s.closers = append(s.closers, func() { _ = mail.Close() })
		os.Setenv("AWS_ENDPOINT_URL_SESV2", mail.URL)
		s.substituted["SESV2"] = "in memory of the aws-ses-v2-local process"
	}
	return nil
}

func startDynamoDB(ctx context.Context, dataDir string) (*substitutes.DynamoDB, error) {
	if dataDir == "" {
		return substitutes.SharedDynamoDB()
	}
	return substitutes.StartDynamoDB(ctx, substitutes.DynamoDBOptions{DataDir: filepath.Join(dataDir, "dynamodb")})
}

// maxRequeue bounds the unsent deliveries re-queued at start; the sweep
// sends any beyond it.
const maxRequeue = 100_000

// requeue puts the deliveries the previous run left behind on the new,
// empty queue substitute, oldest first: those it had queued (in AWS the
// queue keeps them) and those it committed but never queued (the outbox
// sweep would send these too, but only a minute after their creation). The
// provisioner tolerates a repeat, should the sweep send one again.
func (s *Stack) requeue(ctx context.Context) error {
	queued, err := s.App.Store.ListQueuedDeliveries(ctx)
	if err != nil {
		return err
	}
	// Paged by the store; a crash leaves at most one burst of writes unsent.
	unsent, err := s.App.Store.ListUnsentDeliveries(ctx, s.now(), maxRequeue)
	if err != nil {
		return err
	}
	queued = append(queued, unsent...)
	if len(queued) == 0 {
		return nil
	}
	slices.SortStableFunc(queued, func(a, b domain.Delivery) int { return a.CreatedAt.Compare(b.CreatedAt) })
	if err := s.App.Service.Queue.Enqueue(ctx, queued); err != nil {
		return fmt.Errorf("re-queue %d deliveries: %w", len(queued), err)
	}
	s.App.Logger.Info("re-queued the deliveries the previous run left behind", "deliveries", len(queued))
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
	if wantsHTML(r) {
		// A person in a browser: the mails to read, newest first.
		slices.Reverse(out)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = mailListPage.Execute(w, out)
		return
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

// SampleApplications is the seeded applications document, imported into
// the table at start: one application whose users and groups go to the
// sample SCIM SP, with a logo the stack serves (logoURL).
func SampleApplications(spBaseURL, logoURL string) string {
	return fmt.Sprintf(`{
  "applications": [
    {"manageId": "sample-app", "manageType": "SAML20_SP", "name": "Sample application", "nameNl": "Voorbeeldapplicatie",
     "organizationName": "Sample University", "organizationNameNl": "Voorbeelduniversiteit", "logoUrl": %q,
     "landingPage": "https://sample.example.org", "provisionings": ["sample-sp"]}
  ],
  "provisionings": [
    {"id": "sample-sp", "name": "Sample SCIM SP", "baseUrl": %q, "version": "v1", "membership": "PATCH",
     "userIdentifier": "eduPersonPrincipalName", "auth": {"method": "bearer", "token": "env:%s"}}
  ]
}`, logoURL, spBaseURL, sampleSPTokenEnv)
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
