#!/usr/bin/env node
/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the last that runs on
 * Node 20) against the BUILT server over --http in demo mode. Scenarios that need the suite's
 * own fixtures are listed in expected-failures.yml; anything else failing fails the run.
 * Prints the suite's summary line. Run by .ci/run and `npm run conformance`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const server = spawn(process.execPath, ['dist/server/index.mjs', '--http', '127.0.0.1:0'], {
  cwd: root,
  env: { ...withoutReports(process.env), REPORTS_DEMO: 'true', REPORTS_TIMEZONE: 'UTC' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let log = '';
const url = await new Promise((resolve, reject) => {
  server.stderr.on('data', (chunk) => {
    log += chunk.toString('utf8');
    const m = /listening on (http:\/\/\S+)/.exec(log);
    if (m) resolve(m[1]);
  });
  server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)));
});

let code = 1;
try {
  const suite = spawn(
    process.execPath,
    [
      'node_modules/@modelcontextprotocol/conformance/dist/index.js',
      'server',
      '--url',
      url,
      '--expected-failures',
      'test/conformance/expected-failures.yml',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  suite.stdout.on('data', (chunk) => (out += chunk.toString('utf8')));
  code = await new Promise((resolve) => suite.once('exit', (c) => resolve(c ?? 1)));
  // The per-scenario lines and the verdict, without the suite's progress chatter.
  const summary = out.slice(out.indexOf('=== SUMMARY ==='));
  process.stdout.write(`${summary.trim()}\n`);
  const total = /Total: \d+ passed, \d+ failed/.exec(out);
  process.stdout.write(`conformance: ${total ? total[0] : 'no summary line'}; exit ${code}\n`);
} finally {
  server.kill('SIGKILL');
}
process.exit(code);

function withoutReports(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('REPORTS_')));
}
