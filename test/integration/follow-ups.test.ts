/**
 * Follow-ups that work (issue: answers that lead somewhere): every "Next" call of every report,
 * run against the sandbox through a real SDK client, answers something useful: a group-by gives
 * fewer groups than half the rows it groups (not one group per booking), a filter keeps some
 * rows. structuredContent.next carries exactly the calls the text's Next lines propose. The
 * prompts' follow-ups are run the same way. Each answer's size is printed for the notes.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

type Rec = Record<string, unknown>;
interface NextCall {
  say: string;
  tool: string;
  arguments: Rec;
}

const NOW = new Date('2026-11-15T12:00:00Z');
let s: InProcess;
let locators: string[];
beforeAll(async () => {
  s = await startInProcess({ now: () => NOW, sandbox: { now: () => NOW } });
  // Some unticketed bookings (with ticketing deadlines), some others.
  const bookings = s.rt.sandbox!.dataset.bookings;
  const unticketed = bookings.filter((b) => b.air.length && !b.tickets.length && !b.cancelled).slice(0, 6);
  locators = [...unticketed, ...bookings.slice(0, 6)].map((b) => b.recordLocator);
});
afterAll(async () => {
  await s?.close();
});

/** Arguments under which each report holds enough records for a follow-up to mean something. */
function caseArgs(tool: string): Rec {
  const window = { DateStart: 'today-365', DateEnd: 'today+90' };
  switch (tool) {
    case 'booking_details':
      return { RecordLocator: locators, LoadOptions: 'All' };
    case 'pnr_segments':
      return { RecordLocator: locators };
    case 'find_bookings':
    case 'tickets_issued_by_number':
      return { parameters: { DateStart: 'today-90', DateEnd: 'today' } };
    case 'ticket_coupons_by_status_code':
      return { ...window, CouponCodeGroup: 'ALL', DateTracker: 'I' };
    case 'check_failed_submissions':
    case 'qlog_forward':
    case 'partner_forwarding_logs':
      return { LogDateStart: 'today-365', LogDateEnd: 'today' };
    case 'distributor_bookings_by_airline_class':
    case 'ticket_coupons_issued':
      return { IssueDateStart: 'today-90', IssueDateEnd: 'today' };
    case 'passenger_arrivals':
      return { ArrivalDateStart: 'today-30', ArrivalDateEnd: 'today+30' };
    case 'problematic_segments':
    case 'passenger_air_segments_with_max_traveller_flag':
      return { DepartureDateStart: 'today-180', DepartureDateEnd: 'today+90' };
    case 'bookings_with_active_segments':
      return { TravelDateStart: 'today', TravelDateEnd: 'today+60' };
    case 'car_segment_counts_per_account_by_vendor':
      return { ...window, VendorCode: 'ZE' };
    case 'qc_comments_for_consultant':
    case 'app_users_activity':
      return { DateStart: 'today-180', DateEnd: 'today' };
    default:
      return window;
  }
}

async function ok(tool: string, args: Rec): Promise<{ r: CallToolResult; sc: Rec; text: string }> {
  const r = await s.call(tool, args);
  expect(r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`).toBeFalsy();
  return { r, sc: r.structuredContent as Rec, text: textOf(r) };
}

/** Why a follow-up's answer is not useful, or undefined when it is. */
function uselessBecause(call: NextCall, sc: Rec): string | undefined {
  const matched = Number(sc.matched);
  if (call.tool !== 'query_report') return undefined;
  if (!(matched > 0)) return 'it keeps no rows';
  if (call.arguments.groupBy) {
    const groups = Number(sc.groupCount ?? (sc.groups as unknown[]).length);
    if (!(groups >= 1 && groups < matched / 2)) return `${groups} groups for ${matched} rows`;
  }
  return undefined;
}

const sizes: string[] = [];

describe('every Next line of every report answers something useful', () => {
  for (const def of TRANSACTIONS) {
    it(def.tool, async () => {
      const args = caseArgs(def.tool);
      const { sc, text } = await ok(def.tool, args);
      expect(Number(sc.fetchedRecords), `${def.tool} holds records`).toBeGreaterThan(0);
      const next = sc.next as NextCall[];
      // The text's Next lines and structuredContent.next propose the same calls.
      const lines = text.split('\n').filter((l) => l.startsWith('Next, '));
      expect(lines).toEqual(
        next
          .filter((c) => c.tool === 'query_report')
          .map((c) => `Next, ${c.say}: ${c.tool} ${JSON.stringify(c.arguments)}`),
      );
      for (const call of next) {
        const answer = await ok(call.tool, call.arguments);
        const why = uselessBecause(call, answer.sc);
        sizes.push(
          `| ${def.tool} | ${call.say} | ${JSON.stringify({ ...call.arguments, resultId: undefined })} | ` +
            `${answer.sc.matched ?? ''} | ${answer.sc.groupCount ?? (answer.sc.groups as unknown[] | undefined)?.length ?? ''} | ` +
            `${answer.text.length} | ${JSON.stringify(answer.sc).length} |`,
        );
        expect(why, `${def.tool}: "${call.say}" ${JSON.stringify(call.arguments)}: ${why}`).toBeUndefined();
      }
    });
  }
});

describe("the prompts' follow-ups answer something useful", () => {
  const group = async (tool: string, args: Rec, query: Rec) => {
    const { sc } = await ok(tool, args);
    const call = { say: 'prompt', tool: 'query_report', arguments: { resultId: sc.resultId, ...query } };
    const answer = await ok('query_report', call.arguments);
    const why = uselessBecause(call, answer.sc);
    sizes.push(
      `| prompt ${tool} | ${JSON.stringify(query)} | ${answer.sc.matched} | ${answer.sc.groupCount ?? ''} | ` +
        `${answer.text.length} | ${JSON.stringify(answer.sc).length} |`,
    );
    expect(why, `${tool} ${JSON.stringify(query)}: ${why}`).toBeUndefined();
  };

  it('open_unused_tickets_review: open coupons expiring soon, per Account with count and FOPFare', async () => {
    await group(
      'ticket_coupons_by_status_code',
      { CouponCodeGroup: 'OPEN', DateTracker: 'E', DateStart: 'today', DateEnd: 'today+365' },
      { groupBy: ['Account'], aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'FOPFare' }] },
    );
  });

  it('problematic_segments_for_pcc (the busiest PCC, from 90 days back): per SegmentStatus, per OwningConsultant', async () => {
    // The sandbox holds few problem segments ahead of its today: the window starts 90 days back.
    const window = { DepartureDateStart: 'today-90', DepartureDateEnd: 'today+365' };
    const all = await ok('problematic_segments', window);
    const perPcc = await ok('query_report', { resultId: all.sc.resultId, groupBy: ['OwningAgencyLocationID'] });
    const busiest = (perPcc.sc.groups as Array<{ key: Rec; count: number }>)[0].key.OwningAgencyLocationID;
    const args = { OwningAgencyLocationID: busiest, ...window };
    await group('problematic_segments', args, { groupBy: ['SegmentStatus'] });
    await group('problematic_segments', args, { groupBy: ['OwningConsultant'] });
  });

  it('hotel_attachment: distinct bookings per Account of hotel stays and of flights', async () => {
    const window = { DateStart: 'today-30', DateEnd: 'today+30' };
    const q = { groupBy: ['Account'], aggregates: [{ fn: 'countDistinct', field: 'RecordLocator' }] };
    await group('hotel_segments', { ...window, DateSearchType: 'A' }, q);
    await group('air_segments_by_date', { ...window, DateSearchType: 'T' }, q);
  });

  it('traveller_tracking: travellers per Status and per Account', async () => {
    const args = { place: 'SIN', from: 'today', to: 'today+7' };
    await group('travellers_at', args, { groupBy: ['Status'] });
    await group('travellers_at', args, { groupBy: ['Account'] });
  });
});

afterAll(() => {
  console.error(
    `| from | follow-up | arguments | matched | groups | text chars | structured chars |\n${sizes.join('\n')}`,
  );
});
