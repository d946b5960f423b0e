import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { resolveDate } from '../catalog/resolve.js';
import { ReportsError, redact } from '../errors.js';
import { parseEnvelope } from '../upstream/envelope.js';
import { clockSkewMs, errorFromStatus, formatDuration } from '../upstream/failure.js';
import { guard } from './boundary.js';
import type { ToolContext } from './progress.js';
import { READ_ONLY_ANNOTATIONS } from './report-tools.js';
import { callSignal, type Runtime } from './runtime.js';

const diagnoseOutputShape = {
  verdict: z.enum(['ok', 'problem']),
  source: z.enum(['live', 'demo']),
  checks: z.array(z.object({ check: z.string(), ok: z.boolean(), detail: z.string(), fix: z.string().optional() })),
};

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** Signed requests are refused when the clocks disagree by more than a few minutes. */
const CLOCK_TOLERANCE_MS = 60_000;
/** A cheap, unscoped report for the one signed test request. */
const PROBE_PATH = '/AppUsersActivity';

// Built once per process: every session's server registers these same schemas (plain-schemas.ts).
const diagnoseInput = z.object({}).strict();
const diagnoseOutput = z.object(diagnoseOutputShape);

export function registerDiagnose(server: McpServer, rt: Runtime): void {
  server.registerTool(
    'diagnose_connection',
    {
      title: 'Diagnose the connection',
      description:
        'Check the configuration, the clock against the service, and one signed request; says what is wrong and how ' +
        'to fix it. Use when report tools fail with auth, network or configuration errors.',
      inputSchema: diagnoseInput,
      outputSchema: diagnoseOutput,
      annotations: { title: 'Diagnose the connection', ...READ_ONLY_ANNOTATIONS },
    },
    guard('diagnose_connection', rt.secrets, rt.log, async (_args: Record<string, never>, ctx: ToolContext) => {
      const checks = [...configurationChecks(rt), ...(await requestChecks(rt, callSignal(rt, ctx.mcpReq.signal)))].map(
        (c) => ({
          ...c,
          detail: redact(c.detail, rt.secrets),
        }),
      );
      const verdict = checks.every((c) => c.ok) ? 'ok' : 'problem';
      const lines = [
        verdict === 'ok'
          ? `Connection OK (${
              rt.source === 'demo'
                ? 'demo mode: synthetic data from the embedded sandbox'
                : `live: ${rt.config.baseUrl}`
            }).`
          : `Connection problem: ${checks
              .filter((c) => !c.ok)
              .map((c) => c.check)
              .join(', ')}.`,
        ...checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.check}: ${c.detail}${c.fix ? `\n  fix: ${c.fix}` : ''}`),
      ];
      return {
        structuredContent: { verdict, source: rt.source, checks },
        content: [{ type: 'text', text: redact(lines.join('\n'), rt.secrets) }],
      };
    }),
  );
}

function configurationChecks(rt: Runtime): Check[] {
  const c = rt.config;
  const checks: Check[] = [];
  if (rt.source === 'demo') {
    checks.push({
      check: 'mode',
      ok: true,
      detail: 'demo mode: the embedded sandbox answers with synthetic data, signed and paged like the real service.',
      fix: "For your agency's data set REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY (and unset REPORTS_DEMO).",
    });
  } else {
    checks.push({ check: 'base URL', ok: true, detail: c.baseUrl ?? '' });
    checks.push({ check: 'API username', ok: true, detail: `set (${c.apiUsername})` });
    checks.push({ check: 'API key', ok: true, detail: `set (${c.apiKey?.length ?? 0} characters, not shown)` });
  }
  checks.push({
    check: 'settings',
    ok: true,
    detail:
      `time zone ${c.timeZone}; page size ${c.pageSize}; concurrency ${c.concurrency}; max ` +
      `records ${c.maxRecords}; request timeout ${c.timeoutMs} ms; call budget ${c.callBudgetMs} ms; PII ` +
      `redaction ${c.redactPii ? 'on' : 'off'}; default UserName ${c.userName ?? 'none'}; company ` +
      `scope ${c.owningCompanyCodes?.join(',') ?? 'not pinned'}`,
  });
  return checks;
}

async function requestChecks(rt: Runtime, signal?: AbortSignal): Promise<Check[]> {
  const today = resolveDate('today', { timeZone: rt.config.timeZone, now: rt.now() });
  const query: Record<string, string> = { DateStart: today, DateEnd: today, Offset: '0', Limit: '1' };
  const probe = await rt.upstream.probe(PROBE_PATH, query, signal);
  const checks: Check[] = [];
  if (probe.error || !probe.answer) {
    checks.push({
      check: 'reach the service',
      ok: false,
      detail: probe.error?.message ?? 'no answer',
      fix: 'Check REPORTS_BASE_URL (scheme, host, port, path) and that this machine can reach it (proxy, VPN, firewall).',
    });
    return checks;
  }
  const answer = probe.answer;
  checks.push({ check: 'reach the service', ok: true, detail: `HTTP ${answer.status} in ${probe.elapsedMs} ms` });

  const skew = clockSkewMs(answer.date, probe.sentAt);
  if (skew === undefined) {
    checks.push({
      check: 'clock',
      ok: true,
      detail: 'the service sent no Date header; the clock could not be compared',
    });
  } else {
    const ok = Math.abs(skew) <= CLOCK_TOLERANCE_MS;
    checks.push({
      check: 'clock',
      ok,
      detail: ok
        ? `agrees with the service's (within ${formatDuration(Math.max(1000, Math.abs(skew)))})`
        : `the local clock is ${formatDuration(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} the service's ` +
          `(its Date: ${answer.date})`,
      fix: ok
        ? undefined
        : 'Correct the system clock (enable NTP time sync): each request carries its time and is refused when the ' +
          'clocks disagree by minutes.',
    });
  }

  if (answer.status < 200 || answer.status >= 300) {
    const err = errorFromStatus(answer, PROBE_PATH, probe.sentAt, rt.secrets);
    checks.push({
      check: 'signed request',
      ok: false,
      detail: err.message,
      fix:
        err.kind === 'auth'
          ? 'Check REPORTS_API_USERNAME (the API username, not your login e-mail) and REPORTS_API_KEY (the secret ' +
            'key, no spaces), then the clock.'
          : answer.status === 404
            ? 'REPORTS_BASE_URL should be the address the report paths are appended to.'
            : "Try again later; if it persists, contact the service's support.",
    });
    return checks;
  }
  try {
    if (answer.json === undefined)
      throw new ReportsError('malformed_response', `HTTP ${answer.status} ${answer.contentType} is not JSON`);
    const page = parseEnvelope(answer.json, 'collection', PROBE_PATH);
    checks.push({
      check: 'signed request',
      ok: true,
      detail: `accepted; ${PROBE_PATH} answered with ${page.totalRecords ?? page.records.length} records for today`,
    });
  } catch (err) {
    const e = err as ReportsError;
    // Success:false after authentication still proves the signature was accepted.
    checks.push(
      e.kind === 'upstream'
        ? {
            check: 'signed request',
            ok: true,
            detail: `signature accepted; the test report itself answered: ${e.message}`,
          }
        : {
            check: 'signed request',
            ok: false,
            detail: e.message,
            fix: 'REPORTS_BASE_URL does not seem to point at the reporting service.',
          },
    );
  }
  return checks;
}
