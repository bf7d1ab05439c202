# Guest invitation and role provisioning service.
# `make run` starts the embedded local stack; `make test` runs every test.

GO        ?= go
FUNCTIONS := $(notdir $(wildcard functions/*))
BUILD_DIR := build
NPM_DIR   := localstack
APIDOCS_DIR := shared/httpapi/apidocs

.PHONY: import-applications job run test test-go test-cdk test-parity rie test-faults test-model test-fuzz test-infra vet build synth deploy-local npm chromium api-docs-vendor clean bench bench-national

## run: the whole service on one machine (embedded local stack, PORT default 8080)
# Built, then run (not `go run`, which exits 1 on Ctrl-C): Ctrl-C stops the
# stack cleanly and make exits 0.
run: npm
	@mkdir -p $(BUILD_DIR)/local
	$(GO) build -o $(BUILD_DIR)/local/localstack ./localstack/cmd/localstack
	./$(BUILD_DIR)/local/localstack

## job: run one scheduled job of a running `make run` now (JOB=expiry|cleanup|outbox-sweep)
job:
	$(GO) run ./localstack/cmd/job $(JOB)

## import-applications: load an applications document (the former APPLICATIONS_CONFIG) into the
## table once, secret references kept: make import-applications APPS=apps.json [API=https://…] TOKEN=<super-user token>
API ?= http://127.0.0.1:8080
import-applications:
	@test -n "$(APPS)" || { echo "APPS=<document.json> is required"; exit 2; }
	@test -n "$(TOKEN)" || { echo "TOKEN=<a super user's API token> is required"; exit 2; }
	@curl -sS --fail-with-body -H "X-API-TOKEN: $(TOKEN)" -H 'Content-Type: application/json' \
		--data-binary @$(APPS) $(API)/api/v1/manage/registry/import; echo

## npm: install the local AWS substitutes pinned by localstack/package-lock.json
## and the API document's linter and Swagger UI (shared/httpapi/apidocs)
npm: $(NPM_DIR)/node_modules/.package-lock.json $(APIDOCS_DIR)/node_modules/.package-lock.json

$(NPM_DIR)/node_modules/.package-lock.json: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error

$(APIDOCS_DIR)/node_modules/.package-lock.json: $(APIDOCS_DIR)/package.json $(APIDOCS_DIR)/package-lock.json
	cd $(APIDOCS_DIR) && SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error

## api-docs-vendor: copy the pinned Swagger UI into the binary's /api/docs assets
api-docs-vendor: npm
	cp $(APIDOCS_DIR)/node_modules/swagger-ui-dist/swagger-ui-bundle.js \
	   $(APIDOCS_DIR)/node_modules/swagger-ui-dist/swagger-ui.css $(APIDOCS_DIR)/assets/

## test: vet and every test of the service module and of the CDK app
# vet first: a build error stops everything at once. Then the Go tests beside
# the CDK app's tests, the parity test and the fuzz runs (make -j2): the Go
# tests wait mostly on DynamoDB Local and the SQS substitute, the others on
# Node, the Lambda emulators and the compiler, so each fills the other's idle
# core; the Go tests take longest, so the rest ends before them. The fuzz runs
# count inputs, not time, so sharing the cores changes nothing they check.
# Output comes line by line as it is written.
test: vet
	$(MAKE) --no-print-directory -j2 --output-sync=line test-go test-cdk

# test-cdk: the CDK app's tests, the parity test, then the fuzz runs (one
# after the other even under -j: the first two synthesize). npm here too, so
# that under -j test-go's npm is the only npm ci.
test-cdk: npm test-infra
	$(MAKE) --no-print-directory test-parity
	$(MAKE) --no-print-directory test-fuzz

vet:
	$(GO) vet ./...

## chromium: Debian's Chromium for the browser tests, from apt when missing (never downloaded otherwise)
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		echo "installing chromium with apt-get"; \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The timeout is above go test's default 10 minutes per package: the local
# stack's tests run ~7 minutes on a quiet 2-core machine and longer on a
# loaded one. The browser tests (localstack/browsertest) need chromium and
# axe-core.
# go test runs the packages in the order given, GO_TEST_P at a time: the
# slowest go first, so that the many short ones fill in beside them instead
# of the slowest starting last (./... is alphabetical). Three on two cores:
# the local stack's tests mostly wait (on SCIM servers that answer late or
# throttle, retry back-offs, the queue's polls, restarts), using about a
# third of a core over their run, while every other slow package keeps a
# core busy (DynamoDB Local's single SQLite thread, the test binary,
# Chromium); with two at a time, most of a core idled beside the local
# stack once the CDK side (make test-cdk) was done.
GO_TEST_P ?= 3
SLOW_PKGS := ./localstack/stack ./shared/httpapi ./localstack/browsertest ./shared/service ./shared/dynamo
test-go: npm chromium
	$(GO) test -count=1 -p $(GO_TEST_P) -timeout 30m $(SLOW_PKGS) $$($(GO) list ./... | grep -vxF "$$($(GO) list $(SLOW_PKGS))")

## test-faults: the fault-injection test at the scale of issue 5 (1,000 guests, ~15 min; make test runs 50)
test-faults: npm
	FAULT_TEST_USERS=1000 $(GO) test -count=1 -timeout 40m -run TestDeliveryUnderFaults -v ./localstack/stack/

## test-model: the model-based test (random operations, sequential then concurrent, compared
## with a model and the SP) at a larger scale; make test runs it at MODEL_SCALE=1. MODEL_SCALE
## sets the scale (default 10), MODEL_SEED repeats a run
MODEL_SCALE ?= 10
test-model: npm
	MODEL_SCALE=$(MODEL_SCALE) $(GO) test -count=1 -timeout 60m -run TestModelAgreesAfterRandomOperations -v ./localstack/stack/

## test-fuzz: a short run (FUZZTIME each, default 3000x: a count of inputs, not a duration, which a loaded machine can end mid-run) of every fuzz target of the request decoders and dates (go test ./... runs their seed corpora)
# Each package's test binary is built once, instrumented for fuzzing (go test
# -c -fuzz), and run per target in the package's directory, with go test's
# own corpus cache: `go test -fuzz` per target linked the binary anew each
# time (some 20 links of the httpapi test binary).
FUZZTIME ?= 3000x
FUZZ_PKGS := ./shared/httpapi ./shared/dynamo
FUZZ_BIN_DIR := $(abspath $(BUILD_DIR))/fuzz
test-fuzz:
	@mkdir -p $(FUZZ_BIN_DIR)
	@set -e; for pkg in $(FUZZ_PKGS); do \
	  bin=$(FUZZ_BIN_DIR)/$$(basename $$pkg).test; \
	  cache=$$($(GO) env GOCACHE)/fuzz/$$($(GO) list $$pkg); \
	  $(GO) test -c -fuzz=. -o $$bin $$pkg; \
	  for f in $$(cd $$pkg && $$bin -test.list '^Fuzz' | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; \
	    (cd $$pkg && $$bin -test.run '^$$' -test.fuzz "^$$f\$$" -test.fuzztime $(FUZZTIME) -test.fuzzcachedir $$cache); \
	  done; \
	done

test-infra:
	$(MAKE) -C infra test

## test-parity: every function's real bootstrap under the Lambda Runtime Interface Emulator, with the
## environment and IAM statements of the synthesized template (localstack/parity/README.md)
RIE_MODULE  := github.com/aws/aws-lambda-runtime-interface-emulator
RIE_VERSION := v0.0.0-20261030222936-bef5c4ba774d
RIE_BIN     := $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)/aws-lambda-rie
PARITY_DIR  := $(abspath $(BUILD_DIR))/parity
# Deployment values the test replaces with local stand-ins (localstack/parity/deployment.go).
PARITY_CONTEXT := {"oidcIssuer":"https://idp.parity.test","oidcAudience":"invite","oidcClientId":"invite-web","superUsers":"admin@parity.example.org","mailDomain":"parity.example.org","mailFrom":"invite@parity.example.org","scimAllowedAddresses":"127.0.0.1","scimAllowHttp":true,"performanceSeedAllowed":true,"expiryLimit":3,"roleDeletionBudget":3,"roleMoveBudget":3}
test-parity: npm rie
	$(MAKE) -C infra synth SYNTH_OUT=$(PARITY_DIR)/cdk.out SYNTH_CONTEXT='$(PARITY_CONTEXT)'
	PARITY_TEMPLATE=$(PARITY_DIR)/cdk.out/InviteStack.template.json PARITY_RIE=$(RIE_BIN) \
		$(GO) test -tags parity -count=1 -timeout 15m ./localstack/parity/

## rie: the AWS Lambda Runtime Interface Emulator at its pinned version, installed when missing or another version
rie:
	@$(GO) version -m $(RIE_BIN) 2>/dev/null | grep -q '$(RIE_MODULE)[[:space:]]*$(RIE_VERSION)' || \
		{ echo "installing aws-lambda-rie $(RIE_VERSION)"; $(GO) install $(RIE_MODULE)/cmd/aws-lambda-rie@$(RIE_VERSION); }

## bench: the benchmarks in one table: S1 on DynamoDB Local (S1_USERS users, default 75000,
## in S1_ROLES roles, default 500: load time, searches p50/p95 and DynamoDB requests per page,
## expiry job), the console pages at the same scale (p50/p95, requests per page) and the delivery
## path (./localstack/stack/: 1,000 acceptances for throughput, 200 one at a time for latency) and a
## receive from the local SQS substitute (./localstack/lambdasqs/)
## The truth table (BenchmarkTruth, shared/service/truth_bench_test.go): per query kind, DynamoDB items
## read and requests per page, p95, and whether page and total equal a brute-force answer from the seed
## (TRUTH_USERS users, default 20000, in TRUTH_ROLES roles, default 200, the first with TRUTH_BIG_ROLE members).
S1_USERS ?= 75000
S1_ROLES ?= 500
TRUTH_USERS ?= 20000
TRUTH_ROLES ?= 200
TRUTH_BIG_ROLE ?= 6000
TRUTH_TABLE = awk 'BEGIN { printf "%-40s %11s %13s %9s %9s %7s %7s\n", "query kind", "items/page", "requests/page", "p95-ms", "first-ms", "page", "total" } \
	/^BenchmarkTruth\// && /ns\/op/ { name = $$1; sub(/^BenchmarkTruth\//, "", name); sub(/-[0-9]+$$/, "", name); \
	  delete v; for (i = 5; i < NF; i += 2) v[$$(i+1)] = $$i; \
	  printf "%-40s %11s %13s %9s %9s %7s %7s\n", name, v["items/page"], v["requests/page"], v["p95-ms"], v["first-ms"], \
	    (v["page-correct"] == "1.000" ? "right" : "WRONG"), (v["total-correct"] == "1.000" ? "right" : "WRONG") } \
	/^(--- FAIL|FAIL|panic)/ { print }'
bench: npm
	@mkdir -p $(BUILD_DIR)
	@{ S1_USERS=$(S1_USERS) S1_ROLES=$(S1_ROLES) $(GO) test -count=1 -timeout 90m -run '^$$' -bench S1 -benchtime 1x ./shared/service/; \
	   TRUTH_USERS=$(TRUTH_USERS) TRUTH_ROLES=$(TRUTH_ROLES) TRUTH_BIG_ROLE=$(TRUTH_BIG_ROLE) $(GO) test -count=1 -timeout 90m -run '^$$' -bench Truth -benchtime 1x ./shared/service/; \
	   CONSOLE_BENCH_USERS=$(S1_USERS) CONSOLE_BENCH_ROLES=$(S1_ROLES) $(GO) test -count=1 -timeout 60m -run '^$$' -bench ConsolePages -benchtime 1x ./shared/web/; \
	   $(GO) test -count=1 -timeout 30m -run '^$$' -bench DeliveryPathThroughput -benchtime 1000x ./localstack/stack/; \
	   $(GO) test -count=1 -timeout 30m -run '^$$' -bench AcceptedToMemberAtSP -benchtime 200x ./localstack/stack/; \
	   $(GO) test -count=1 -timeout 10m -run '^$$' -bench ReceiveOfAVisibleMessage ./localstack/lambdasqs/; } > $(BUILD_DIR)/bench.txt 2>&1; \
	status=$$?; \
	awk 'BEGIN { printf "%-36s %-22s %12s\n", "benchmark", "metric", "value" } \
	     /^Benchmark/ { name = $$1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$$/, "", name); \
	       for (i = 5; i < NF; i += 2) printf "%-36s %-22s %12s\n", name, $$(i+1), $$i; next } \
	     $$1 ~ /^[0-9]+$$/ && $$3 == "ns/op" && name != "" { \
	       for (i = 4; i < NF; i += 2) printf "%-36s %-22s %12s\n", name, $$(i+1), $$i } \
	     /^(--- FAIL|FAIL|panic)/ { print }' $(BUILD_DIR)/bench.txt; \
	echo; $(TRUTH_TABLE) $(BUILD_DIR)/bench.txt; \
	echo "(machine: $$(nproc) cores, $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); full output in $(BUILD_DIR)/bench.txt)"; \
	exit $$status

## bench-national: the truth table at a national deployment's scale (not in `make test`; hours of seeding on
## DynamoDB Local): 1,000,000 users, 10,000 roles, one of them with 50,000 members (NATIONAL_USERS,
## NATIONAL_ROLES, NATIONAL_BIG_ROLE set a reduced scale). The seed is kept in NATIONAL_DB_DIR (DynamoDB
## Local's files, default build/national-db) and is resumable: a progress item in the table records how many
## users are in, a run continues from there, and a run whose target is reached only asks the queries.
## NATIONAL_SEED_UNTIL (RFC 3339 time) stops seeding at the first chunk boundary after it and asks the queries
## at the scale reached; NATIONAL_SEED_WRITERS writes in flight (default 8), NATIONAL_SEED_CHUNK roles or users per
## chunk (default 5000). Progress (users/s, items/s, ETA) goes to build/bench-national.txt as each chunk ends.
## NATIONAL_NO_FSYNC=1 runs DynamoDB Local with its syncs made no-ops (localstack/nofsync, built with cc): on disk
## the seed is 2.4 times faster, and a crash mid-run can corrupt the table (delete the folder then).
## Delete NATIONAL_DB_DIR to seed from scratch.
NATIONAL_USERS ?= 1000000
NATIONAL_ROLES ?= 10000
NATIONAL_BIG_ROLE ?= 50000
NATIONAL_DB_DIR ?= $(CURDIR)/$(BUILD_DIR)/national-db
NATIONAL_SEED_UNTIL ?=
NATIONAL_SEED_WRITERS ?= 8
NATIONAL_SEED_CHUNK ?= 5000
NATIONAL_NO_FSYNC ?=
bench-national: npm
	@mkdir -p $(BUILD_DIR)
	@preload=; if [ "$(NATIONAL_NO_FSYNC)" = 1 ]; then \
		cc -O2 -shared -fPIC -o $(BUILD_DIR)/nofsync.so localstack/nofsync/nofsync.c || exit 1; \
		preload=$(abspath $(BUILD_DIR))/nofsync.so; fi; \
	LD_PRELOAD=$$preload TRUTH_USERS=$(NATIONAL_USERS) TRUTH_ROLES=$(NATIONAL_ROLES) TRUTH_BIG_ROLE=$(NATIONAL_BIG_ROLE) \
		TRUTH_DB_DIR=$(abspath $(NATIONAL_DB_DIR)) TRUTH_SEED_UNTIL=$(NATIONAL_SEED_UNTIL) \
		TRUTH_SEED_WRITERS=$(NATIONAL_SEED_WRITERS) TRUTH_SEED_CHUNK=$(NATIONAL_SEED_CHUNK) \
		$(GO) test -count=1 -timeout 24h -run '^$$' -bench Truth -benchtime 1x -v ./shared/service/ \
		> $(BUILD_DIR)/bench-national.txt 2>&1; status=$$?; \
	$(TRUTH_TABLE) $(BUILD_DIR)/bench-national.txt; \
	echo "(machine: $$(nproc) cores; full output in $(BUILD_DIR)/bench-national.txt)"; exit $$status

## build: every function as bootstrap for provided.al2023 on arm64, zipped
build:
	@mkdir -p $(BUILD_DIR)
	@set -e; for f in $(FUNCTIONS); do \
		echo "build $$f"; \
		mkdir -p $(BUILD_DIR)/$$f; \
		GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -tags lambda.norpc \
			-ldflags='-s -w' -o $(BUILD_DIR)/$$f/bootstrap ./functions/$$f; \
		rm -f $(BUILD_DIR)/$$f.zip; (cd $(BUILD_DIR)/$$f && zip -q -X ../$$f.zip bootstrap); \
	done

## synth: the CloudFormation cloud assembly, offline
synth:
	$(MAKE) -C infra synth

## deploy-local: deploy the same stack to LocalStack (needs Docker; see localstack/README.md)
deploy-local: build
	$(MAKE) -C infra deploy-local

clean:
	rm -rf $(BUILD_DIR) infra/cdk.out
