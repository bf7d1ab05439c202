# Guest invitation and role provisioning service.
# `make run` starts the embedded local stack; `make test` runs every test.

GO        ?= go
FUNCTIONS := $(notdir $(wildcard functions/*))
BUILD_DIR := build
NPM_DIR   := localstack

.PHONY: job run test test-go test-faults test-infra vet build synth deploy-local npm clean bench

## run: the whole service on one machine (embedded local stack, PORT default 8080)
run: npm
	$(GO) run ./localstack/cmd/localstack

## job: run one scheduled job of a running `make run` now (JOB=expiry|cleanup|outbox-sweep)
job:
	$(GO) run ./localstack/cmd/job $(JOB)

## npm: install the local AWS substitutes pinned by localstack/package-lock.json
npm: $(NPM_DIR)/node_modules/.package-lock.json

$(NPM_DIR)/node_modules/.package-lock.json: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error

## test: vet and every test of the service module and of the CDK app
test: vet test-go test-infra

vet:
	$(GO) vet ./...

# The timeout is above go test's default 10 minutes per package: the local
# stack's tests run ~3 minutes here but may take longer on a loaded machine.
test-go: npm
	$(GO) test -count=1 -timeout 30m ./...

## test-faults: the fault-injection test at the scale of issue 5 (1,000 guests, ~15 min; make test runs 200)
test-faults: npm
	FAULT_TEST_USERS=1000 $(GO) test -count=1 -timeout 40m -run TestDeliveryUnderFaults -v ./localstack/stack/

# The delivery path's speed and cost (deliveries/s, SCIM requests per
# acceptance, DynamoDB and SQS requests per delivery, p50/p95 acceptance to
# membership at the SP); the README keeps the latest figures.
bench: npm
	LOG_LEVEL=error $(GO) test -count=1 -run '^$$' -bench . -benchtime 200x ./localstack/stack/

test-infra:
	$(MAKE) -C infra test

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
