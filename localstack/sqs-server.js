#!/usr/bin/env node
"use strict";
// Starts local-aws-sqs (it ships no bin) on --host/--port and prints
// "READY <url>" once it listens. Usage: node sqs-server.js [--host 127.0.0.1] [--port 0]
const { createSqsServer } = require("local-aws-sqs");
const { parseListenArgs, reportReady, exitWithParent, fail } = require("./launcher-common");

const { host, port } = parseListenArgs(process.argv.slice(2));

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
