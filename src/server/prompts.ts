import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * Starting points for the jobs agencies do most. Each prompt is a user message that names
 * the tools and parameters to use; the assistant then calls them. Arguments are strings
 * (MCP prompt arguments are), dates in any form the report tools accept.
 */
interface PromptDef {
  name: string;
  title: string;
  description: string;
  args: Record<string, z.ZodString | z.ZodOptional<z.ZodString>>;
  text: (a: Record<string, string | undefined>) => string;
}

const optional = (description: string) => z.string().optional().describe(description);

export const PROMPTS: readonly PromptDef[] = [
  {
    name: 'open_unused_tickets_review',
    title: 'Open and unused tickets review',
    description:
      'Find tickets with open or unused coupons (refund/exchange candidates), per account, with their value.',
    args: {
      dateStart: optional('Expiry/issue window start (YYYYMMDD, today, today-N); default today'),
      dateEnd: optional('Window end; default today+30'),
      account: optional('Account(s), comma-separated; default all'),
    },
    text: (a) =>
      [
        `Review open and unused ticket coupons${a.account ? ` for account ${a.account}` : ''}.`,
        `1. Call ticket_coupons_by_status_code with CouponCodeGroup "OPEN", DateTracker "E" (expiry date), ` +
          `DateStart "${a.dateStart ?? 'today'}", DateEnd "${a.dateEnd ?? 'today+30'}"${a.account ? `, Account "${a.account}"` : ''}.`,
        '2. With query_report on its resultId: group by Account with count, countDistinct of TktNumber and sum ' +
          "of CreditValue (given per CreditCurrency; a ticket's FOPFare repeats on each coupon and its currency is " +
          'not stated, so it is no value to add); then list the tickets (TktNumber, Passenger, Carrier, FlightDate, ' +
          'CreditValue, CreditCurrency) of the largest accounts.',
        '3. If the result is incomplete, call continue_report before concluding.',
        'Answer with a table per account (tickets, coupons, credit per currency, never added across currencies) ' +
          'and the tickets expiring first.',
      ].join('\n'),
  },
  {
    name: 'traveller_tracking',
    title: 'Traveller tracking (duty of care)',
    description: 'Which travellers are at, arriving at or leaving a place in a date window, with contact details.',
    args: {
      destination: z.string().describe('Airport, city or country code, e.g. SIN or SG'),
      dateStart: optional('Window start; default today'),
      dateEnd: optional('Window end; default today+7'),
    },
    text: (a) =>
      [
        `Which of our travellers are in, arriving at or leaving ${a.destination} between ` +
          `${a.dateStart ?? 'today'} and ${a.dateEnd ?? 'today+7'}?`,
        `1. Call travellers_at with place "${a.destination}" (an airport or a 2-letter country code as it is; ` +
          `city:CODE for a city code), from "${a.dateStart ?? 'today'}" and to "${a.dateEnd ?? 'today+7'}".`,
        '2. Use query_report on its resultId to list the travellers per Status (Traveller, From, To, RecordLocator, ' +
          'Account, TravellerPhone, TravellerEmail, BookingPhone, BookingEmail, Basis) and count them per Account.',
        '3. Name the undecided stays apart, each with its Reason, and leave out those passing through on a connection.',
        "Answer with the list of travellers and how to reach them (a Booking contact is the booking's, not " +
          "necessarily the traveller's own: say so); say if the result was incomplete (its notes say which call).",
      ].join('\n'),
  },
  {
    name: 'problematic_segments_for_pcc',
    title: 'Problematic segments for a PCC',
    description:
      'Segments with problem statuses (waitlisted, unconfirmed, schedule changes) for a PCC, to fix before departure.',
    args: {
      pcc: z.string().describe('PCC (OwningAgencyLocationID), e.g. 1ABC'),
      days: optional('How many days ahead to look; default 14'),
    },
    text: (a) =>
      [
        `Find problematic segments for PCC ${a.pcc} departing in the next ${a.days ?? '14'} days.`,
        `1. Call problematic_segments with OwningAgencyLocationID "${a.pcc}", DepartureDateStart "today", ` +
          `DepartureDateEnd "today+${a.days ?? '14'}".`,
        '2. With query_report: group by SegmentState and SegmentStatus, and by OwningConsultant (count); list the ' +
          'earliest departures first (orderBy DepartureDate).',
        'Answer with what each consultant should fix first.',
      ].join('\n'),
  },
  {
    name: 'hotel_attachment',
    title: 'Hotel attachment',
    description:
      'Hotel bookings per vendor compared with air bookings in a period: where travellers fly without booking a hotel.',
    args: {
      dateStart: z.string().describe('Period start (YYYYMMDD, today-30, ...)'),
      dateEnd: z.string().describe('Period end'),
      account: optional('Account(s), comma-separated; default all'),
    },
    text: (a) =>
      [
        `Measure hotel attachment between ${a.dateStart} and ${a.dateEnd}${a.account ? ` for ${a.account}` : ''}.`,
        `1. hotel_segment_counts_per_location with DateStart "${a.dateStart}", DateEnd "${a.dateEnd}": hotel ` +
          `segments and nights per vendor.`,
        `2. hotel_segments (DateSearchType "A", same dates${a.account ? `, Account "${a.account}"` : ''}) and ` +
          'air_segments_by_date (DateSearchType "T", same dates): with query_report, where SegmentState eq ' +
          'confirmed, count distinct RecordLocator per Account in each.',
        '3. Attachment rate per account = bookings with hotel / bookings with air.',
        'Answer with a table per account and the top vendors by nights.',
      ].join('\n'),
  },
];

export function registerPrompts(server: McpServer): void {
  for (const p of PROMPTS) {
    server.registerPrompt(
      p.name,
      { title: p.title, description: p.description, argsSchema: p.args },
      (args: Record<string, string | undefined>) => ({
        description: p.description,
        messages: [{ role: 'user', content: { type: 'text', text: p.text(args) } }],
      }),
    );
  }
}
