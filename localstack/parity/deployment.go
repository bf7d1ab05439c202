package parity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/localstack/lambdasqs"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/dynamo"
)

// Deployment values given to the synthesis (make test-parity) that stand
// for outside systems, and so are replaced by local ones.
const (
	SynthOIDCIssuer = "https://idp.parity.test"
	SynthClientID   = "invite-web"
)

// BuildFunctions builds every functions/* main for this machine as Lambda
// would run it (lambda.norpc, static) into dir/<name>/bootstrap.
func BuildFunctions(moduleRoot, dir string) error {
	entries, err := os.ReadDir(filepath.Join(moduleRoot, "functions"))
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "bin")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-tags", "lambda.norpc", "-o", out+string(filepath.Separator), "./functions/...")
	cmd.Dir = moduleRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build the functions: %v: %s", err, b)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(out, e.Name()), filepath.Join(d, "bootstrap")); err != nil {
			return err
		}
	}
	return nil
}

// Env is a running local deployment of the template.
type Env struct {
	Dep       Deployment
	Functions map[string]FunctionDef
	Routes    []Route
	Gateway   *Gateway
	IdP       *idp.IdP
	SES       *substitutes.SES
	Secrets   *substitutes.SecretsManager
	SQS       *awssqs.Client
	// Store reads the table as the tests check it (not through a function).
	Store    *dynamo.Store
	Log      *CallLog
	Template *Template
	QueueURL string
	DLQURL   string
	// CRMKey is the API key of the CRM among the machine callers.
	CRMKey string

	runtimes map[string]*Runtime
	proxies  map[string]*Proxy
	async    sync.WaitGroup
	closers  []func()
}

// Options of Start.
type Options struct {
	Template *Template
	// BinDir holds <function>/bootstrap (BuildFunctions).
	BinDir string
	RIE    string
	// Functions to run; the others are not started.
	Functions []string
}

// Start brings up the substitutes, the table, queues and secrets of the
// template, one checking proxy and one emulator per function, the gateway
// and the OIDC provider.
func Start(ctx context.Context, opts Options) (_ *Env, err error) {
	e := &Env{Log: &CallLog{}, Template: opts.Template, runtimes: map[string]*Runtime{}, proxies: map[string]*Proxy{}}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	region := "eu-west-1"
	e.Dep = Deployment{Account: "123456789012", Region: region, TableName: "invite-parity-" + randomHex(4),
		QueueURLs: map[string]string{}, Values: map[string]string{}}

	dir, err := substitutes.Dir()
	if err != nil {
		return nil, err
	}
	if err := substitutes.EnsureNodeModules(dir); err != nil {
		return nil, err
	}
	// Its own DynamoDB Local, started within ctx's deadline: on a loaded
	// machine the JVM takes longer than the shared one's minute.
	ddb, err := substitutes.StartDynamoDB(ctx, substitutes.DynamoDBOptions{})
	if err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = ddb.Close() })
	q, err := substitutes.StartSQS(ctx, "")
	if err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = q.Close() })
	if e.SES, err = substitutes.StartSES(ctx, ""); err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = e.SES.Close() })
	if e.Secrets, err = substitutes.StartSecretsManager("", ""); err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = e.Secrets.Close() })
	cfg, err := substitutes.AWSConfig(ctx, substitutes.Endpoints{DynamoDB: ddb.URL, SQS: q.URL, SESv2: e.SES.URL})
	if err != nil {
		return nil, err
	}
	if err := dynamo.CreateTable(ctx, dynamodb.NewFromConfig(cfg), e.Dep.TableName); err != nil {
		return nil, err
	}
	e.SQS = awssqs.NewFromConfig(cfg)
	e.Store = dynamo.New(dynamodb.NewFromConfig(cfg), e.Dep.TableName, time.Now)
	// The queues as the template declares them (names, FIFO, redrive).
	workURL, dlqURL, err := substitutes.CreateQueues(ctx, e.SQS, "invite-scim", substitutes.MaxReceiveCount)
	if err != nil {
		return nil, err
	}
	for _, name := range opts.Template.QueueNames() {
		switch name {
		case "invite-scim.fifo":
			e.Dep.QueueURLs[name] = workURL
		case "invite-scim-dlq.fifo":
			e.Dep.QueueURLs[name] = dlqURL
		default:
			return nil, fmt.Errorf("queue %s of the template has no local stand-in", name)
		}
	}
	e.QueueURL, e.DLQURL = workURL, dlqURL

	// The OIDC provider at a loopback address, for the issuer of the synthesis.
	idpLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	issuer := "http://" + idpLn.Addr().String() + "/idp"
	if e.IdP, err = idp.New(issuer); err != nil {
		return nil, err
	}
	idpMux := http.NewServeMux()
	idpMux.Handle("/idp/", http.StripPrefix("/idp", e.IdP.Handler()))
	idpSrv := &http.Server{Handler: idpMux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = idpSrv.Serve(idpLn) }()
	e.closers = append(e.closers, func() { _ = idpSrv.Close() })
	e.Dep.Values[SynthOIDCIssuer] = issuer

	e.Gateway = &Gateway{Invoke: e.invoke}
	e.Dep.GatewayURL = e.Gateway.Start()
	e.closers = append(e.closers, e.Gateway.Close)

	if e.Functions, err = opts.Template.Functions(e.Dep); err != nil {
		return nil, err
	}
	if e.Routes, err = opts.Template.Routes(e.Functions); err != nil {
		return nil, err
	}
	e.Gateway.Routes = e.Routes

	// The template's secrets get values an operator would put in.
	sm := secretsmanager.NewFromConfig(cfg, func(o *secretsmanager.Options) { o.BaseEndpoint = aws.String(e.Secrets.URL) })
	clientSecret, originSecret := randomHex(20), randomHex(20)
	for _, name := range opts.Template.SecretNames() {
		value := randomHex(20)
		switch {
		case strings.HasSuffix(name, "oidc-client"):
			value = clientSecret
		case strings.HasSuffix(name, "origin-verify"):
			value = originSecret
			e.Gateway.OriginHeader, e.Gateway.OriginValue = "X-Origin-Verify", originSecret
		case strings.HasSuffix(name, "machine-callers"):
			e.CRMKey = randomHex(20)
			value = `{"crm":[{"name":"Parity CRM","apiKey":"` + e.CRMKey + `"}]}`
		}
		if _, err := sm.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String(name), SecretString: aws.String(value)}); err != nil {
			return nil, err
		}
	}
	if web, ok := e.Functions["web"]; ok {
		e.IdP.RegisterClient(web.Env["OIDC_CLIENT_ID"], idp.Client{Secret: clientSecret,
			RedirectURIs: []string{strings.TrimRight(web.Env["PUBLIC_BASE_URL"], "/") + "/login/callback"}})
	}

	up := Upstreams{DynamoDB: ddb.URL, SQS: q.URL, SESv2: e.SES.URL, SecretsManager: e.Secrets.URL, Lambda: e.invokeByID}
	for _, name := range opts.Functions {
		def, ok := e.Functions[name]
		if !ok {
			return nil, fmt.Errorf("function %s is not in the template", name)
		}
		p := &Proxy{Function: name, Policy: def.Policy, Dep: e.Dep, Up: up}
		if err := StartProxy(p, e.Log); err != nil {
			return nil, err
		}
		e.proxies[name] = p
		e.closers = append(e.closers, p.Close)
		rt, err := StartRuntime(opts.RIE, filepath.Join(opts.BinDir, name, "bootstrap"), def, p.URL, region)
		if err != nil {
			return nil, err
		}
		e.runtimes[name] = rt
		e.closers = append(e.closers, rt.Close)
	}
	return e, nil
}

// Close stops everything, waiting for asynchronous invocations first.
func (e *Env) Close() {
	e.async.Wait()
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// Runtime returns a running function's runtime.
func (e *Env) Runtime(name string) *Runtime { return e.runtimes[name] }

// Proxy returns the AWS endpoint of a running function.
func (e *Env) Proxy(name string) *Proxy { return e.proxies[name] }

func (e *Env) invoke(ctx context.Context, function string, payload []byte) ([]byte, error) {
	rt, ok := e.runtimes[function]
	if !ok {
		return nil, fmt.Errorf("function %s is not running", function)
	}
	return rt.Invoke(ctx, payload)
}

// invokeByID is Lambda's Invoke for a function named by its logical id
// (the Ref of the function, as another function's environment names it).
func (e *Env) invokeByID(ctx context.Context, id string, payload []byte, async bool) ([]byte, error) {
	for name, def := range e.Functions {
		if def.LogicalID != id {
			continue
		}
		if !async {
			return e.invoke(ctx, name, payload)
		}
		e.async.Add(1)
		defer e.async.Done()
		return e.invoke(context.Background(), name, payload)
	}
	return nil, fmt.Errorf("ResourceNotFoundException: function %s", id)
}

// WaitAsync waits for the asynchronous invocations under way.
func (e *Env) WaitAsync() { e.async.Wait() }

// Scheduled invokes a function with the event its EventBridge schedule
// sends.
func (e *Env) Scheduled(ctx context.Context, function string) ([]byte, error) {
	ev := events.EventBridgeEvent{Version: "0", ID: randomHex(8), DetailType: "Scheduled Event", Source: "aws.events",
		AccountID: e.Dep.Account, Time: time.Now().UTC(), Region: e.Dep.Region, Detail: json.RawMessage(`{}`)}
	b, _ := json.Marshal(ev)
	return e.invoke(ctx, function, b)
}

// SESEvent invokes function with an SES event as the configuration set's
// EventBridge rule delivers it.
func (e *Env) SESEvent(ctx context.Context, function, detailType string, detail json.RawMessage) ([]byte, error) {
	ev := events.EventBridgeEvent{Version: "0", ID: randomHex(8), DetailType: detailType, Source: "aws.ses",
		AccountID: e.Dep.Account, Time: time.Now().UTC(), Region: e.Dep.Region, Detail: detail}
	b, _ := json.Marshal(ev)
	return e.invoke(ctx, function, b)
}

// SQSPoller is the event source mapping of a queue consumer: it receives
// with the function's role (through its proxy) and invokes it.
func (e *Env) SQSPoller(function string, visibility time.Duration) (*lambdasqs.Poller, error) {
	p, ok := e.proxies[function]
	if !ok {
		return nil, fmt.Errorf("function %s is not running", function)
	}
	client := awssqs.New(awssqs.Options{Region: e.Dep.Region, BaseEndpoint: aws.String(p.URL),
		Credentials: credentials.NewStaticCredentialsProvider("parity", "parity", "esm")})
	var queueName string
	for _, es := range e.Template.EventSources(e.Functions) {
		if es.Function == function {
			queueName = es.QueueName
		}
	}
	if queueName == "" {
		return nil, errors.New(function + " has no SQS event source in the template")
	}
	return &lambdasqs.Poller{Client: client, QueueURL: e.Dep.QueueURLs[queueName], QueueARN: e.Dep.QueueARN(queueName),
		VisibilityTimeout: visibility, WaitTime: time.Second, Concurrency: 1,
		Handler: func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
			var resp events.SQSEventResponse
			b, _ := json.Marshal(ev)
			out, err := e.invoke(ctx, function, b)
			if err != nil {
				return resp, err
			}
			return resp, json.Unmarshal(out, &resp)
		}}, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
