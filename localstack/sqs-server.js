#!/usr/bin/env node
"use strict";
// Starts local-aws-sqs (it ships no bin) on --host/--port and prints
// "READY <url>" once it listens. Usage: node sqs-server.js [--host 127.0.0.1] [--port 0]
const { createSqsServer } = require("local-aws-sqs");
const { parseListenArgs, reportReady, exitWithParent, fail } = require("./launcher-common");

const { host, port } = parseListenArgs(process.argv.slice(2));

// local-aws-sqs (2.0.2, pinned by package-lock.json) looks for messages to
// receive every 10 ms, the first time 10 ms after the receive, where SQS
// answers at once when messages are visible: every receive took at least
// 10 ms, which bounded the local consumer to about 90 receives a second.
// That scan is the package's one 10 ms interval; its first look now runs at
// once (it clears its interval itself once it has its messages).
// localstack/lambdasqs BenchmarkReceiveOfAVisibleMessage shows it.
const receiveScanMillis = 10;
const cleared = new WeakSet();
const clearIntervalOrig = global.clearInterval;
const setIntervalOrig = global.setInterval;
global.clearInterval = (timer) => {
  if (timer) cleared.add(timer);
  return clearIntervalOrig(timer);
};
global.setInterval = (fn, ms, ...args) => {
  const timer = setIntervalOrig(fn, ms, ...args);
  if (ms === receiveScanMillis) {
    setImmediate(() => {
      if (!cleared.has(timer)) fn(...args);
    });
  }
  return timer;
};

createSqsServer({
  port,
  hostname: host,
  region: process.env.AWS_REGION || "eu-west-1",
  // Tests delete and recreate queues with the same name; the 60 s AWS wait would only slow them.
  emulateQueueCreationLifecycle: false,
})
  .then((server) => {
    server.on("error", (err) => fail(`local-aws-sqs: ${err.message}`));
    reportReady(server, host);
    exitWithParent(server);
  })
  .catch((err) => fail(`local-aws-sqs failed to start: ${err && err.stack ? err.stack : err}`));
