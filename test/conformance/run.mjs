#!/usr/bin/env node
/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha) against the BUILT
 * server over --http on 127.0.0.1, in demo mode, once per requirement set: 2025-11-25 and
 * 2026-07-28 (the scenarios each spec revision requires, frozen at its release). Each set has
 * its baseline, baseline-<set>.yml: the checks that need the suite's own fixtures (its test_*
 * tools, prompts and test:// resources), one line each with the reason after a `#`. The suite
 * judges a run against it: a failure not in it, or a listed check that passes (a stale line),
 * fails the set. Scenarios the requirement set does not score (pending, extension) are run
 * and shown, never judged, as the suite itself does.
 *
 * Prints, per set, a table (scenario, passed, failed) and the verdict. Exits 1 when an enforced
 * set fails. The 2026-07-28 set is enforced only when enforce-2026-07-28.json says so (the server
 * speaks 2025-11-25 until issue 33's SDK v2 move lands); until then it only reports.
 *
 * The suite needs Node >= 22: `--node PATH`, else $NODE22_BIN, else this Node if it is >= 22
 * (.ci/node-binary.sh 22 prints one). The server runs on the Node running this script.
 * `--url URL` judges a server already running there instead of starting the built one.
 * Usage: node test/conformance/run.mjs [--requirements 2025-11-25|2026-07-28]... [--node PATH] [--url URL]
 * Run by .ci/run and `npm run conformance`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import switches from './enforce-2026-07-28.json' with { type: 'json' };

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUITE = 'node_modules/@modelcontextprotocol/conformance';
const SETS = ['2025-11-25', '2026-07-28'];
const ENFORCED = { '2025-11-25': true, '2026-07-28': switches.ENFORCE_2026_07_28 === true };

const { values } = parseArgs({
  options: { requirements: { type: 'string', multiple: true }, node: { type: 'string' }, url: { type: 'string' } },
});
const sets = values.requirements ?? SETS;
for (const set of sets) {
  if (!SETS.includes(set)) fail(`--requirements: expected one of ${SETS.join(', ')}, got "${set.slice(0, 40)}"`);
}
const suiteNode = values.node ?? process.env.NODE22_BIN ?? (major(process.versions.node) >= 22 ? process.execPath : '');
if (!suiteNode) {
  fail(
    `the conformance suite needs Node >= 22 and this is ${process.version}: pass --node PATH or set NODE22_BIN ` +
      '(.ci/node-binary.sh 22 installs one from the npm registry and prints its path)',
  );
}
const suiteVersion = JSON.parse(readFileSync(`${ROOT}/${SUITE}/package.json`, 'utf8')).version;
for (const set of sets) checkBaseline(baselinePath(set));

const server = values.url
  ? undefined
  : spawn(process.execPath, ['dist/server/index.mjs', '--http', '127.0.0.1:0'], {
      cwd: ROOT,
      env: {
        ...withoutReports(process.env),
        REPORTS_DEMO: 'true',
        REPORTS_TIMEZONE: 'UTC',
        REPORTS_RESULTS_DIR: 'off',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
let failed = false;
try {
  const url = server ? await listening(server) : values.url;
  for (const set of sets) {
    const run = await runSet(set, url);
    process.stdout.write(report(set, url, run));
    if (!run.ok && ENFORCED[set]) failed = true;
  }
} finally {
  server?.kill('SIGKILL');
}
process.exit(failed ? 1 : 0);

/** One requirement set through the suite; its summary and baseline verdict read from its output. */
async function runSet(set, url) {
  const args = [`${SUITE}/dist/index.js`, 'server', '--url', url, '--requirements', set];
  const suite = spawn(suiteNode, [...args, '--expected-failures', baselinePath(set)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  suite.stdout.on('data', (c) => (out += c.toString('utf8')));
  suite.stderr.on('data', (c) => (err += c.toString('utf8')));
  const code = await new Promise((resolve) => {
    suite.once('close', (c) => resolve(c ?? 1));
    suite.once('error', (e) => {
      err += `could not start ${suiteNode}: ${e.message}`;
      resolve(1);
    });
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its verdict lines
  const text = out.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = text.slice(text.indexOf('=== SUMMARY ==='));
  const rows = [...summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)].map((m) => ({
    scenario: m[1],
    passed: Number(m[2]),
    failed: Number(m[3]),
  }));
  // What the set runs without scoring (pending, extension), from the suite's own requirement file.
  const requirements = readFileSync(`${ROOT}/${SUITE}/requirements/${set}.yaml`, 'utf8');
  const notScored = new Map(
    [...requirements.matchAll(/- scenario: (\S+)\s+leg: server\s+reason: (\S+)/g)].map((m) => [m[1], m[2]]),
  );
  const listed = (title) => {
    const at = summary.indexOf(title);
    if (at === -1) return [];
    const block = summary.slice(at + title.length).split(/\n\s*\n/)[0];
    return [...block.matchAll(/^ {2}[~✓✗] (\S+)$/gmu)].map((m) => m[1]);
  };
  const run = {
    code,
    rows,
    notScored,
    expected: listed('Expected failures (in baseline):'),
    stale: listed('Stale baseline entries'),
    unexpected: listed('Unexpected failures (not in baseline):'),
    // The suite's own output when it did not get as far as a verdict (a crash, a bad baseline).
    trouble:
      rows.length && /Baseline check passed|Unexpected failures|Baseline is stale/.test(summary) ? '' : cut(text + err),
  };
  run.ok = code === 0 && !run.trouble && !run.stale.length && !run.unexpected.length;
  return run;
}

function report(set, url, run) {
  const mode = ENFORCED[set] ? 'enforced' : 'informative: ENFORCE_2026_07_28 is false in enforce-2026-07-28.json';
  const lines = [
    '',
    `conformance ${suiteVersion} --requirements ${set} (${mode}) against ${url}` +
      (values.url ? '' : `, the built server on Node ${process.version}`),
    '| scenario | passed | failed |',
    '|---|---:|---:|',
  ];
  for (const r of run.rows) {
    const note = run.notScored.has(r.scenario) ? ` (not scored: ${run.notScored.get(r.scenario)})` : '';
    lines.push(`| ${r.scenario}${note} | ${r.passed} | ${r.failed} |`);
  }
  const sum = (k) => run.rows.reduce((n, r) => n + r[k], 0);
  lines.push(`| total | ${sum('passed')} | ${sum('failed')} |`);
  const baseline = `test/conformance/baseline-${set}.yml`;
  lines.push(`expected failures (${baseline}): ${run.expected.length}`);
  if (run.unexpected.length) lines.push(`unexpected failures (not in ${baseline}): ${run.unexpected.join(', ')}`);
  if (run.stale.length) lines.push(`stale baseline lines (these pass now: remove them): ${run.stale.join(', ')}`);
  if (run.trouble) lines.push(`the suite exited ${run.code} without a verdict; its output:`, run.trouble);
  const verdict = run.ok ? 'passed' : ENFORCED[set] ? 'FAILED' : 'failed (reported only, not failing the run)';
  lines.push(`conformance ${set}: ${verdict}; ${sum('passed')} checks passed, ${sum('failed')} failed`, '');
  return lines.join('\n');
}

function baselinePath(set) {
  return `test/conformance/baseline-${set}.yml`;
}

/** Each entry of a baseline is one line, `- scenario:check # why`; an entry without a reason is refused. */
function checkBaseline(path) {
  const text = readFileSync(`${ROOT}/${path}`, 'utf8');
  text.split('\n').forEach((line, i) => {
    if (!/^\s*-/.test(line)) return;
    if (!/^\s*- [^\s#:]+(:[^\s#]+)? # \S/.test(line)) {
      fail(`${path} line ${i + 1}: expected "- scenario:check # why it fails", got "${line.trim().slice(0, 80)}"`);
    }
  });
}

function listening(child) {
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      log += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${cut(log)}`)));
  });
}

function major(version) {
  return Number(version.split('.')[0]);
}

function cut(text, max = 4000) {
  return text.length > max ? `${text.slice(0, max)}\n[... ${text.length - max} more characters]` : text;
}

function withoutReports(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('REPORTS_')));
}

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}
