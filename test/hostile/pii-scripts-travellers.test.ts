/**
 * Issue 31, travellers_at: the sandbox's travellers at SIN renamed on the way (a proxy on
 * 127.0.0.1 in front of the real sandbox rewrites every answer) to people of five scripts,
 * and their mobiles rewritten to national and international formats. With REPORTS_REDACT_PII
 * none of them reaches the client through travellers_at: its text, structuredContent, its
 * JSON and CSV resource pages, query_report over it and sql_query over its table.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DUTY_OF_CARE_PLACE } from '../../src/sandbox/duty-of-care.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { signRequest } from '../../src/upstream/sign.js';
import { type HostileUpstream, startHostileUpstream } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords } from '../helpers/resources.js';
import { valuesOf } from './pii-generated.js';
import { type ScriptPerson, scriptLeaks } from './pii-scripts.js';

const NOW = () => new Date('2026-11-15T06:00:00Z');
const WEEK = { place: DUTY_OF_CARE_PLACE, from: 'today', to: 'today+6' };

/** Who the sandbox's travellers at SIN become, by script. */
const NEW_PEOPLE: ScriptPerson[] = [
  { script: 'latin', given: 'José María', surname: 'Álvarez Quintero' },
  { script: 'latin', given: 'Siobhán', surname: 'Ní Bhriain' },
  { script: 'latin', given: 'Jan', surname: 'van der Berg' },
  { script: 'greek', given: 'Γιώργος', surname: 'Παπαδόπουλος' },
  { script: 'cyrillic', given: 'Пётр', surname: 'Иванов' },
  { script: 'cjk', given: '伟芳', surname: '王' },
  { script: 'arabic', given: 'محمد', surname: 'بن سلمان' },
];
const NEW_PHONES = ['0171 2345678', '+34 612 34 56 78', '(01) 555 0199', '+7 (495) 123-45-67', '03-1234-5678'];

let sandbox: Sandbox;
let proxy: HostileUpstream;
let live: LiveServer;
let renamed: ScriptPerson[];
let phones: string[];
let outputs: Record<string, string[]>;

/** Rewrites of the proxy: whole words (never inside an e-mail address), in each case the service writes them. */
function rewriter(pairs: Array<[from: string, to: string]>): (body: string) => string {
  const rules = pairs.flatMap(([from, to]) =>
    [
      [from, to],
      [from.toUpperCase(), to.toLocaleUpperCase()],
    ].map(([f, t]) => ({ re: new RegExp(`(?<![\\p{L}\\p{N}.@_+-])${f}(?![\\p{L}\\p{N}@_-]|\\.\\p{L})`, 'gu'), to: t })),
  );
  return (body) => rules.reduce((text, r) => text.replace(r.re, r.to), body);
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: NOW, dataNow: new Date('2026-11-15T00:00:00Z') });
  // The travellers of the bookings at SIN (appended last by duty-of-care.ts), one new person each.
  const atSin = sandbox.dataset.bookings.slice(-10).flatMap((b) => b.passengers);
  const pairs: Array<[string, string]> = [];
  renamed = [];
  phones = [];
  const seen = new Set<string>();
  for (const t of atSin) {
    if (seen.has(t.firstName) || seen.has(t.lastName) || renamed.length === NEW_PEOPLE.length) continue;
    const to = NEW_PEOPLE[renamed.length];
    seen.add(t.firstName).add(t.lastName);
    pairs.push([t.firstName, to.given], [t.lastName, to.surname]);
    const phone = NEW_PHONES[renamed.length % NEW_PHONES.length];
    pairs.push([t.mobile.replace('+', '\\+'), phone]);
    renamed.push(to);
    phones.push(phone);
  }
  const rewrite = rewriter(pairs);
  proxy = await startHostileUpstream(async (req) => {
    const url = `${sandbox.url}${req.path}?${req.query.toString()}`;
    const date = NOW().toUTCString();
    const res = await fetch(url, {
      headers: {
        Accept: 'application/json',
        'CONTENT-TYPE': 'application/json',
        'X-SERVICE-API-USERNAME': sandbox.username,
        'X-SERVICE-API-DATE': date,
        'X-SERVICE-API-SIGNATURE': signRequest('GET', url, 'application/json', date, sandbox.key),
      },
    });
    return { status: res.status, body: rewrite(await res.text()) };
  });
  live = await startLive(proxy.url, { REPORTS_REDACT_PII: 'true' }, NOW);
  const result = await live.call('travellers_at', WEEK);
  expect(result.isError, textOf(result).slice(0, 400)).toBeFalsy();
  const sc = result.structuredContent as { resultId: string; resourceUri: string; table: string };
  const rows = await live.call('query_report', { resultId: sc.resultId, limit: 1000 });
  const sql = await live.call('sql_query', { sql: `SELECT * FROM "${sc.table}"` });
  expect(sql.isError, textOf(sql).slice(0, 400)).toBeFalsy();
  outputs = {
    text: [textOf(result)],
    structuredContent: valuesOf(result.structuredContent),
    'resource JSON': valuesOf(await readAllRecords(live.client, sc.resourceUri)),
    'resource CSV': [await readAllCsv(live.client, sc.resourceUri)],
    query_report: [textOf(rows), ...valuesOf(rows.structuredContent)],
    sql_query: [textOf(sql), ...valuesOf(sql.structuredContent)],
  };
}, 120_000);

afterAll(async () => {
  await live?.close();
  await proxy?.close();
  await sandbox?.close();
});

test('without masking, travellers_at answers with the renamed travellers in their scripts', async () => {
  expect(renamed.length).toBe(NEW_PEOPLE.length);
  // Without masking, the names are what travellers_at answers.
  const plain = await startLive(proxy.url, {}, NOW);
  try {
    const result = await plain.call('travellers_at', WEEK);
    const found = scriptLeaks([textOf(result), ...valuesOf(result.structuredContent)], renamed, phones);
    expect(new Set(found.map((f) => f.split(':')[0])).size).toBeGreaterThanOrEqual(4);
  } finally {
    await plain.close();
  }
});

test('travellers in five scripts at SIN: none in any channel of travellers_at', () => {
  for (const [channel, texts] of Object.entries(outputs)) {
    expect(texts.length, channel).toBeGreaterThan(0);
    expect(scriptLeaks(texts, renamed, phones), channel).toEqual([]);
  }
  expect(outputs.structuredContent.join('\n')).toContain('Traveller-');
});
