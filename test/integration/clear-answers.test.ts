/**
 * Answers that say their basis and lead somewhere (the issue's "Why", one describe per item),
 * through a real SDK client against the sandbox. Expected values come from the sandbox's own
 * records (its answers to the same queries, or every record read back), never from the answer
 * under test.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine } from '../../src/errors.js';
import type { Booking } from '../../src/sandbox/model.js';
import { decodeDates } from '../../src/upstream/service-date.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;
interface Head {
  resultId: string;
  resourceUri: string;
  query: Record<string, string>;
  complete: boolean;
  fetchedRecords: number;
  notes: string[];
  rows: Rec[];
  next: Array<{ say: string; tool: string; arguments: Rec }>;
}

const NOW = new Date('2026-11-27T09:00:00Z');
let s: InProcess;
beforeAll(async () => {
  s = await startInProcess({ now: () => NOW, sandbox: { now: () => NOW } });
});
afterAll(async () => {
  await s?.close();
});

async function call(tool: string, args: Rec): Promise<{ r: CallToolResult; head: Head; text: string }> {
  const r = await s.call(tool, args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return { r, head: r.structuredContent as unknown as Head, text: textOf(r) };
}

async function report(tool: string, args: Rec) {
  const out = await call(tool, args);
  return { ...out, records: await readAllRecords(s.client, out.head.resourceUri) };
}

/** What the sandbox itself answers, its dates decoded (midnight stays an instant here). */
function sandboxRecords(transaction: string, query: Record<string, string>): Rec[] {
  return decodeDates(s.rt.sandbox!.report(transaction, query)) as Rec[];
}

function dataset() {
  return s.rt.sandbox!.dataset;
}

/** An unticketed, uncancelled booking with a flight in a problem status: deadlines and warnings. */
function bookingToAct(): Booking {
  const b = dataset().bookings.find(
    (x) =>
      x.air.length > 0 &&
      x.tickets.length === 0 &&
      !x.cancelled &&
      x.air.some((a) => a.status === 'UN' || a.status === 'UC' || a.status === 'HL'),
  );
  if (!b) throw new Error('the sandbox has no unticketed booking with a problem segment');
  return b;
}

describe('1. every answer says which date its window filtered on', () => {
  const november = { DateStart: '20261101', DateEnd: '20261127' };

  it('qc_comments_for_consultant: booking creation date unless DateByComments=true, which filters by comment date', async () => {
    const byBooking = await call('qc_comments_for_consultant', november);
    const basis = byBooking.head.notes[0];
    expect(basis).toMatch(/^Dates: DateStart–DateEnd filter by booking creation date \(DateByComments not sent/);
    expect(basis).toContain('DateByComments=true: by comment date');
    // In the text's header, right under the headline.
    expect(byBooking.text.split('\n')[1]).toBe(basis);

    const byComment = await report('qc_comments_for_consultant', { ...november, DateByComments: true });
    expect(byComment.head.notes[0]).toMatch(/filter by comment date \(DateByComments=true; /);
    // What "QC findings in November" means: every comment written in the window, from all of them.
    const all = await report('qc_comments_for_consultant', {});
    const inNovember = all.records.filter((c) => {
      const day = String(c.CommentDate).slice(0, 10);
      return day >= '2026-11-01' && day <= '2026-11-27';
    });
    expect(inNovember.length).toBeGreaterThan(0);
    expect(byComment.records.map((c) => c.Id ?? JSON.stringify(c)).sort()).toEqual(
      inNovember.map((c) => c.Id ?? JSON.stringify(c)).sort(),
    );
  });

  it('air, hotel and coupons say the date their selector picked', async () => {
    const air = await call('air_segments_by_date', november);
    expect(air.head.notes[0]).toBe(
      'Dates: DateStart–DateEnd filter by departure date (DateSearchType not sent, so T; DateSearchType=C: by booking creation date).',
    );
    const hotel = await call('hotel_segments', { ...november, DateSearchType: 'C' });
    expect(hotel.head.notes[0]).toMatch(
      /^Dates: DateStart–DateEnd filter by booking creation date \(DateSearchType=C; /,
    );
    const coupons = await call('ticket_coupons_by_status_code', {
      ...november,
      CouponCodeGroup: 'OPEN',
      DateTracker: 'E',
    });
    expect(coupons.head.notes[0]).toMatch(/^Dates: DateStart–DateEnd filter by ticket expiry date \(DateTracker=E; /);
    expect(coupons.text.split('\n')[1]).toBe(coupons.head.notes[0]);
    // An answer derived from the result says it too.
    const perAccount = await call('query_report', { resultId: coupons.head.resultId, groupBy: ['Account'] });
    expect((perAccount.r.structuredContent as { notes: string[] }).notes).toContain(coupons.head.notes[0]);
    expect(perAccount.text).toContain(`Note: ${coupons.head.notes[0]}`);
  });
});

describe('7. parameters read the right way', () => {
  it('BookingClassName takes the class name, as its description says; Username is the caller, User the filter', async () => {
    const { tools } = await s.client.listTools();
    const param = (tool: string, name: string) =>
      String(
        (tools.find((t) => t.name === tool)?.inputSchema.properties?.[name] as { description?: string } | undefined)
          ?.description,
      );
    expect(param('distributor_bookings_by_airline_class', 'BookingClassName')).toContain('Business');
    expect(param('app_users_activity', 'Username')).toMatch(/not a filter.*User/);
    expect(param('qc_comments_for_consultant', 'DateByComments')).toContain('comment dates');
    const loadOptions = param('booking_details', 'LoadOptions');
    for (const list of ['AirlineTicketingDues', 'ServiceWarnings', 'AccountLocations'])
      expect(loadOptions).toContain(list);

    // The service takes the class name: the name finds bookings, the one-letter code none.
    const window = { IssueDateStart: '20260101', IssueDateEnd: '20261127' };
    const byName = await call('distributor_bookings_by_airline_class', { ...window, BookingClassName: 'Business' });
    expect(byName.head.fetchedRecords).toBeGreaterThan(0);
    const byCode = await call('distributor_bookings_by_airline_class', { ...window, BookingClassName: 'J' });
    expect(byCode.head.fetchedRecords).toBe(0);

    // User filters; its records are that user's only.
    const user = dataset().activities[0].user.email;
    const mine = await report('app_users_activity', { DateStart: '20250101', DateEnd: '20261127', User: user });
    expect(mine.records.length).toBeGreaterThan(0);
    expect(new Set(mine.records.map((r) => r.User))).toEqual(new Set([user]));
  });
});

describe('2. days without a time of day are written as days', () => {
  it('a ticketing deadline is YYYY-MM-DD; an instant keeps its time and offset; the notes say so once', async () => {
    const b = bookingToAct();
    const query = { RecordLocator: b.recordLocator, LoadOptions: 'All' };
    const sent = sandboxRecords('BookingDetails', query)[0];
    const due = (sent.AirlineTicketingDues as Rec[])[0].DueDate as string;
    expect(due).toMatch(/T00:00:00\.000Z$/); // what the old answer showed
    const { head, records, text } = await report('booking_details', query);
    const held = records[0];
    expect((held.AirlineTicketingDues as Rec[])[0].DueDate).toBe(due.slice(0, 10));
    expect(held.CreationDate).toBe(sent.CreationDate);
    expect(String(held.CreationDate)).toMatch(/T\d{2}:\d{2}:\d{2}/);
    const dayNotes = head.notes.filter((n) => n.startsWith('Days without a time of day'));
    expect(dayNotes).toHaveLength(1);
    expect(dayNotes[0]).toContain('AirlineTicketingDues.DueDate');
    expect(text).toContain(`| ${due.slice(0, 10)} |`);
  });

  it('a departure day is a day in rows, records and query_report filters', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261120', DateEnd: '20261127' });
    const sent = sandboxRecords('AirSegmentsByDate', head.query);
    expect(sent.every((r) => String(r.DepartureDate).endsWith('T00:00:00.000Z'))).toBe(true);
    expect(records.map((r) => r.DepartureDate)).toEqual(sent.map((r) => String(r.DepartureDate).slice(0, 10)));
    expect(head.rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(String(r.DepartureDate)))).toBe(true);
    const day = '2026-11-22';
    const q = await call('query_report', {
      resultId: head.resultId,
      where: [{ field: 'DepartureDate', op: 'eq', value: day }],
    });
    const matched = (q.r.structuredContent as { matched: number }).matched;
    expect(matched).toBe(sent.filter((r) => String(r.DepartureDate).startsWith(day)).length);
    expect(matched).toBeGreaterThan(0);
  });
});

describe('3. nothing is left out without a name', () => {
  it('booking_details shows ticketing deadlines and service warnings first, and names every other list', async () => {
    const b = bookingToAct();
    const { head, records, text } = await report('booking_details', {
      RecordLocator: b.recordLocator,
      LoadOptions: 'All',
    });
    const record = records[0];
    const lines = text.split('\n');
    const dues = lines.findIndex((l) => l.startsWith(`  ↳ AirlineTicketingDues of ${b.recordLocator}: 1 item`));
    const warnings = lines.findIndex((l) => l.startsWith(`  ↳ ServiceWarnings of ${b.recordLocator}:`));
    const passengers = lines.findIndex((l) => l.startsWith(`  ↳ Passengers of ${b.recordLocator}:`));
    expect(dues).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(dues);
    expect(passengers).toBeGreaterThan(warnings);
    const due = (record.AirlineTicketingDues as Rec[])[0];
    expect(lines[dues + 2]).toBe(`  | ${due.Airline} | ${due.DueDate} | ${due.DueTime} |`);
    // Every non-empty list the text does not write out is named with its count.
    const written = new Set(
      lines.filter((l) => l.startsWith('  ↳ ') && l.includes(' of ')).map((l) => l.slice(4, l.indexOf(' of '))),
    );
    const notShown = lines.find((l) => l.startsWith('  ↳ Lists not shown: '));
    expect(notShown, text).toBeDefined();
    const others = Object.entries(record).filter(
      ([k, v]) => Array.isArray(v) && v.length > 0 && !written.has(k),
    ) as Array<[string, unknown[]]>;
    expect(others.length).toBeGreaterThan(3);
    for (const [k, v] of others) expect(notShown).toContain(`${k} ${v.length}`);
    expect(notShown).toContain(`query_report {"resultId":"${head.resultId}","unnest":"${others[0][0]}"}`);
  });

  it('a list named in fields is shown as its items, not as a count', async () => {
    const b = bookingToAct();
    const { records, text } = await report('booking_details', {
      RecordLocator: b.recordLocator,
      LoadOptions: 'All',
      fields: ['RecordLocator', 'AirlineTicketingDues'],
    });
    const due = (records[0].AirlineTicketingDues as Rec[])[0];
    expect(text).toContain(`  ↳ AirlineTicketingDues of ${b.recordLocator}: 1 item`);
    expect(text).toContain(`  | ${due.Airline} | ${due.DueDate} | ${due.DueTime} |`);
  });

  it('every field of the records is a column or named in the summary, even when every row is listed', async () => {
    const locators = dataset()
      .bookings.slice(0, 4)
      .map((b) => b.recordLocator);
    const { records, text } = await report('booking_details', {
      RecordLocator: locators,
      LoadOptions: 'All',
      fields: ['RecordLocator', 'AirlineTicketingDues'],
    });
    const lines = text.split('\n');
    const header = lines.find((l) => l.startsWith('| RecordLocator |'))!;
    const notProfiled = lines.find((l) => l.startsWith('Not profiled: ')) ?? '';
    const empty = lines.find((l) => l.startsWith('Empty in every record: ')) ?? '';
    const fields = new Set(records.flatMap((r) => Object.keys(r)));
    for (const f of fields) {
      const named =
        header.includes(`| ${f} |`) ||
        lines.some((l) => l.startsWith(`- ${f}: `)) ||
        notProfiled.includes(f) ||
        empty.includes(f);
      expect(named, f).toBe(true);
    }
  });

  it("a nested table's columns past its width are written under each item, with their values", async () => {
    const b = dataset().bookings.find((x) => x.cars.length > 0 && !x.cancelled)!;
    const { records, text } = await report('pnr_segments', { RecordLocator: b.recordLocator });
    const car = ((records[0].Segments as Rec).CarSegments as Rec[])[0];
    const filled = Object.keys(car).filter((k) => car[k] !== null && car[k] !== '' && car[k] !== undefined);
    expect(filled.length).toBeGreaterThan(12);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  ↳ Segments.CarSegments of ${b.recordLocator}`));
    const header = lines[at + 1];
    const under = lines[at + 3];
    expect(under, text).toMatch(/^ {2}\| {3}↳ /);
    for (const k of filled)
      expect(header.includes(`| ${k} |`) || under.includes(`${k}: ${car[k]}`), `${k}: ${car[k]}`).toBe(true);
  });

  it('structuredContent carries the Next calls the text proposes', async () => {
    const { head, text } = await call('hotel_segments', { DateStart: '20261101', DateEnd: '20261127' });
    expect(head.next.length).toBeGreaterThan(0);
    for (const c of head.next) expect(text).toContain(`Next, ${c.say}: ${c.tool} ${JSON.stringify(c.arguments)}`);
  });
});

describe('4. the cut marker says the whole length', () => {
  it('…[cut: N characters in all], N the length of the whole value', async () => {
    const b = bookingToAct();
    const { records, text } = await report('booking_details', { RecordLocator: b.recordLocator, LoadOptions: 'All' });
    // Free text is written on one line, each run of spaces as one: the value as the text has it.
    const whole = oneLine(String(records[0].ItineraryFormatted)).replace(/\s+/g, ' ');
    expect(whole.length).toBeGreaterThan(60);
    expect(text).toContain(`…[cut: ${whole.length} characters in all]`);
    expect(text).not.toMatch(/\[cut: [\d,]+ characters\]/);
  });
});

describe('5. follow-ups that lead somewhere', () => {
  it('partner_forwarding_logs groups its failures per partner and reason, derived from LogMessage', async () => {
    const { head, records } = await report('partner_forwarding_logs', {
      LogDateStart: '20260101',
      LogDateEnd: '20261127',
    });
    const failures = records.filter((r) => r.Success === false);
    expect(failures.length).toBeGreaterThan(10);
    const perPartner = head.next.find((c) => (c.arguments.groupBy as string[] | undefined)?.includes('Partner'));
    expect(perPartner, JSON.stringify(head.next)).toBeDefined();
    const q = (await call('query_report', perPartner!.arguments)).r.structuredContent as {
      matched: number;
      groupCount: number;
      groups: Array<{ key: Rec; count: number }>;
    };
    expect(q.matched).toBe(failures.length);
    expect(q.groupCount).toBeLessThan(q.matched / 2);
    // The partners the sandbox forwarded to, each failure under its own.
    const partners = new Set(dataset().partnerLogs.map((l) => l.partner));
    for (const g of q.groups) expect(partners.has(String(g.key.Partner)), String(g.key.Partner)).toBe(true);
    for (const f of failures) expect(String(f.LogMessage)).toContain(` to ${f.Partner} failed: ${f.FailureReason}`);
  });

  it('app_users_activity counts reports run per report, derived from RequestDetails', async () => {
    const { head, records } = await report('app_users_activity', { DateStart: '20260101', DateEnd: '20261127' });
    const perReport = head.next.find((c) => (c.arguments.groupBy as string[] | undefined)?.includes('ReportName'));
    expect(perReport).toBeDefined();
    const q = (await call('query_report', perReport!.arguments)).r.structuredContent as {
      matched: number;
      groups: Array<{ key: Rec; count: number }>;
    };
    const runs = records.filter((r) => r.Activity === 'RunReport' || r.Activity === 'DownloadReport');
    expect(q.matched).toBe(runs.length);
    for (const g of q.groups) {
      const name = String(g.key.ReportName);
      expect(g.count).toBe(runs.filter((r) => String(r.RequestDetails).startsWith(`${name} `)).length);
    }
  });
});

describe('6. many bookings in one call', () => {
  it('booking_details takes a list of locators: one result, one request each, a locator not found named', async () => {
    const ds = dataset();
    const horizon = Math.floor(NOW.getTime() / 86_400_000) + 14;
    const travelling = ds.bookings
      .filter((b) => b.air.length && !b.tickets.length && !b.cancelled && b.air[0].depDay <= horizon)
      .slice(0, 8);
    expect(travelling.length).toBeGreaterThan(2);
    const locators = [...travelling.map((b) => b.recordLocator), 'ZZZZZZ'];
    const before = s.rt.sandbox!.requests.length;
    const { head, records, text } = await report('booking_details', { RecordLocator: locators, LoadOptions: 'All' });
    const requests = s.rt.sandbox!.requests.slice(before);
    expect(requests.map((r) => r.query.RecordLocator).sort()).toEqual([...locators].sort());
    expect(head.complete).toBe(true);
    expect(records.map((r) => r.RecordLocator)).toEqual(travelling.map((b) => b.recordLocator));
    expect(head.notes).toContain('Not found at the service: RecordLocator ZZZZZZ.');
    expect(text).toContain('Note: Not found at the service: RecordLocator ZZZZZZ.');
    // The deadlines of all of them, in one follow-up.
    const deadlines = head.next.find((c) => c.arguments.unnest === 'AirlineTicketingDues');
    expect(deadlines).toBeDefined();
    const q = (await call('query_report', deadlines!.arguments)).r.structuredContent as { matched: number };
    const expected = travelling.flatMap(
      (b) =>
        sandboxRecords('BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'All' })[0]
          .AirlineTicketingDues as Rec[],
    );
    expect(q.matched).toBe(expected.length);
  });

  it('pnr_segments takes a list too; continue_report says to call again rather than fetch', async () => {
    const locators = dataset()
      .bookings.slice(0, 5)
      .map((b) => b.recordLocator);
    const { head, records } = await report('pnr_segments', { RecordLocator: locators.join(',') });
    expect(records.map((r) => (r.Summary as Rec).RecordLocator)).toEqual(locators);
    const again = await s.call('continue_report', { resultId: head.resultId });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('call pnr_segments again');
  });
});
