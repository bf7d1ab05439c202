"use strict";
// Shared plumbing of the launcher scripts started by localstack/substitutes:
// argument parsing, the one-line readiness report the Go side waits for, and
// exiting when the parent goes away so no substitute outlives its test run.

/** parseListenArgs reads --host and --port (defaults: 127.0.0.1 and 0 = any free port). */
function parseListenArgs(argv) {
  const opts = { host: "127.0.0.1", port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) fail(`missing value after ${arg}`);
      return argv[++i];
    };
    if (arg === "--host") opts.host = next();
    else if (arg === "--port") opts.port = Number(next());
    else fail(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) fail(`bad --port`);
  return opts;
}

/** reportReady prints the line the Go side parses: READY <url>. */
function reportReady(server, host) {
  const { port } = server.address();
  const h = host.includes(":") ? `[${host}]` : host;
  process.stdout.write(`READY http://${h}:${port}\n`);
}

/** exitWithParent ends the process when stdin closes (the Go parent died or closed it) or on a signal. */
function exitWithParent(server) {
  const stop = () => {
    server.close();
    process.exit(0);
  };
  process.stdin.on("end", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

module.exports = { parseListenArgs, reportReady, exitWithParent, fail };
