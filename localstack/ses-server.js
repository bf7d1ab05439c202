#!/usr/bin/env node
"use strict";
// Starts aws-ses-v2-local on --host/--port and prints "READY <url>" once it
// listens. Its own bin (aws-ses-v2-local --host --port) works too, but does not
// report the port it got when asked for port 0, which we need for random ports.
// Usage: node ses-server.js [--host 127.0.0.1] [--port 0]
const startSes = require("aws-ses-v2-local").default;
const { parseListenArgs, reportReady, exitWithParent, fail } = require("./launcher-common");

const { host, port } = parseListenArgs(process.argv.slice(2));

// Captured mail must stay here: never relay it to a real SMTP server.
delete process.env.SMTP_TRANSPORT;

startSes({ host, port })
  .then((server) => {
    server.on("error", (err) => fail(`aws-ses-v2-local: ${err.message}`));
    reportReady(server, host);
    exitWithParent(server);
  })
  .catch((err) => fail(`aws-ses-v2-local failed to start: ${err && err.stack ? err.stack : err}`));
