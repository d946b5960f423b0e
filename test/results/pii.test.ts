import { describe, expect, it } from 'vitest';
import { renderQuery } from '../../src/presentation/query-text.js';
import { renderResult } from '../../src/presentation/report-text.js';
import { recordsToCsv } from '../../src/results/csv.js';
import { createRedactor } from '../../src/results/pii.js';
import { runQuery } from '../../src/results/query.js';
import { summarize } from '../../src/results/summarize.js';
import { coupons, type Rec } from './fixtures.js';

/** Coupons plus every place the service puts names, e-mails and phones (the record layouts the service publishes). */
function withPii(): Rec[] {
  return coupons().map((r, i) => ({
    ...r,
    Remark:
      i === 0
        ? 'Call Smith on +44 20 7946 0958 or mail john.smith@example.com before 2026-11-01 10:00'
        : i === 3
          ? "Mary O'Neil-Smith asked for a window seat"
          : r.Remark,
    PaxList: i === 0 ? 'SMITH/JOHN MR, DOE/JANE MS' : r.Passenger,
    PrimaryPax: i === 3 ? "O'NEIL-SMITH/MARY MS" : r.Passenger,
    BookedInName: i === 2 ? 'DOE/JANE' : null,
    CTCE: i === 0 ? 'JOHN.SMITH//EXAMPLE.COM' : '',
    CTCM: i === 0 ? '4155550100' : '',
    EmailList: i === 1 ? 'john.smith@example.com; travel@globex-corp.com' : '',
    MobileList: i === 1 ? '+1 415 555 0100, +49 170 1234567' : '',
    Phones: i === 0 ? [{ PhoneType: 'M', City: 'NYC', Number: '212-555-0199', SequenceNbr: 1 }] : [],
    Emails: i === 0 ? [{ SequenceNbr: 1, EmailType: 'TO', Email: 'jane.doe@example.org' }] : [],
    EmailTrails:
      i === 0
        ? [{ RecipientEmail: 'ken.nakamura@example.net', DeliveryDetails: 'delivered to ken.nakamura@example.net' }]
        : [],
    Tickets: i === 0 ? [{ TktNumber: r.TktNumber, Passenger: { LastName: 'Roe', FirstName: 'Richard' } }] : [],
  }));
}

const NAMES = [
  'SMITH',
  'JOHN',
  'DOE',
  'JANE',
  'ROE',
  'RICHARD',
  'MUELLER',
  'ANNA',
  'NAKAMURA',
  'KEN',
  'OKAFOR',
  'CHIDI',
  'SILVA',
  'ANA',
  'MARY',
  "O'NEIL",
];
const EMAILS = [
  'john.smith@example.com',
  'JOHN.SMITH//EXAMPLE.COM',
  'travel@globex-corp.com',
  'jane.doe@example.org',
  'ken.nakamura@example.net',
  '@example.com',
];
const PHONES = ['+44 20 7946 0958', '7946', '4155550100', '415 555', '212-555-0199', '170 1234567'];

function leaks(text: string): string[] {
  const found: string[] = [];
  for (const name of NAMES) if (new RegExp(`(?<![A-Za-z])${name}(?![A-Za-z])`, 'i').test(text)) found.push(name);
  for (const s of [...EMAILS, ...PHONES]) if (text.toLowerCase().includes(s.toLowerCase())) found.push(s);
  return found;
}

describe('createRedactor', () => {
  const key = Buffer.alloc(32, 7);
  const redact = createRedactor(true, { key });
  const raw = withPii();
  const records = raw.map(redact);

  it('the unredacted data really contains what the test looks for', () => {
    expect(leaks(JSON.stringify(raw))).toEqual([...NAMES, ...EMAILS, ...PHONES]);
  });

  it('leaves nothing in summary, rendered text, query results or CSV', () => {
    const summary = summarize(records);
    const view = {
      report: 'ticket_coupons_by_status_code',
      source: 'demo' as const,
      query: redact({ DateStart: '20261101', PaxSurname: 'SMITH' }),
      totalRecords: 12,
      fetchedRecords: 12,
      complete: true,
      notes: [],
      resultId: 'r_x',
      table: 'ticket_coupons_by_status_code_1',
      resourceUri: 'u://x',
      summary,
      records,
    };
    const args = { groupBy: ['Passenger'], aggregates: [{ fn: 'countDistinct' as const, field: 'EmailAddress' }] };
    const grouped = runQuery(records, args);
    const outputs = [
      JSON.stringify(records),
      JSON.stringify(summary),
      renderResult(view),
      renderResult(view, { rowLimit: 100, fields: Object.keys(records[0]) }),
      JSON.stringify(grouped),
      renderQuery(grouped, { resultId: 'r_x', args }),
      JSON.stringify(runQuery(records, { limit: 100 })),
      recordsToCsv(records),
    ];
    for (const text of outputs) expect(leaks(text)).toEqual([]);
  });

  it('masks stably: same person, same mask, so grouping still counts right', () => {
    const [k1, k2] = records;
    expect(k1.Passenger).toMatch(/^Traveller-[0-9a-f]{8}$/);
    expect(k1.Passenger).toBe(k2.Passenger);
    expect(redact({ Passenger: '  smith/john   mr ' }).Passenger).toBe(k1.Passenger);
    expect(k1.Passenger).not.toBe(records[2].Passenger);
    expect(k1.EmailAddress).toMatch(/^email-[0-9a-f]{8}$/);
    expect(k1.PhoneNbr).toMatch(/^phone-[0-9a-f]{8}$/);
    // The same e-mail in another field or in free text gets the same mask.
    expect(String(records[1].EmailList).split(', ')[0]).toBe(k1.EmailAddress);
    expect(k1.Remark).toContain(String(k1.EmailAddress));
    expect(k1.CTCE).toBe(k1.EmailAddress);
    // Lists of names are masked item by item.
    expect(k1.PaxList).toBe(`${k1.Passenger}, ${records[2].Passenger}`);
    // Group sizes are the same as before masking.
    const sizes = (rs: Rec[]) => runQuery(rs, { groupBy: ['Passenger'] }).groups!.map((g) => g.count);
    expect(sizes(records)).toEqual(sizes(raw));
    // Same key, same masks across instances; another key, other masks.
    expect(createRedactor(true, { key })(raw[0])).toEqual(k1);
    expect(createRedactor(true)(raw[0]).Passenger).not.toBe(k1.Passenger);
  });

  it('keeps what is not personal: ids, dates, amounts, accounts and the rest of free text', () => {
    const k1 = records[0];
    for (const f of [
      'RecordLocator',
      'TktNumber',
      'Account',
      'FOPFare',
      'FlightDate',
      'VndIssueDt',
      'FlownKM',
      'IsVip',
      'Summary',
    ]) {
      expect(k1[f], f).toEqual(raw[0][f]);
    }
    expect(k1.Remark).toMatch(
      /^Call Traveller-[0-9a-f]{8} on phone-[0-9a-f]{8} or mail email-[0-9a-f]{8} before 2026-11-01 10:00$/,
    );
    expect(records[3].Remark).toMatch(/^Traveller-[0-9a-f]{8} Traveller-[0-9a-f]{8} asked for a window seat$/);
    expect(k1.Phones).toEqual([
      { PhoneType: 'M', City: 'NYC', Number: expect.stringMatching(/^phone-/), SequenceNbr: 1 },
    ]);
    expect((k1.Tickets as Rec[])[0].TktNumber).toBe(raw[0].TktNumber);
    expect(raw[0].Passenger).toBe('SMITH/JOHN MR'); // the input is not modified
  });

  it('is the identity when disabled', () => {
    const off = createRedactor(false);
    expect(off(raw[0])).toBe(raw[0]);
  });
});

describe('masking that generalises (issue 18)', () => {
  const redact = createRedactor(true, { key: Buffer.alloc(32, 9) });
  const ids = {
    TktNumber: '0814412345678',
    RecordLocator: 'QUIX12',
    ServiceRef: 98765432,
    PCC: 'SYD1A',
    PseudoCityCode: 'MEL2B',
    AccountCode: 'ACME01',
    Account: 'ACME',
    OwningCompanyCode: 'TRV1',
  };
  const [stated, prose, phones] = redact.records([
    { ...ids, Traveller: { First: 'Gwendolyn', Last: 'Quixworth', Title: 'MRS' } },
    { ...ids, Xq: "rebooked gwendolyn QUIXWORTH after a call; Quixworth's bags, Quixworth’s seat" },
    { ...ids, LogText: 'sync mobile=4402079460958 tel:+61 2 9374 4000', ContactPhone: '4402079460958' },
  ]);

  it('names under person keys no list holds, and again in prose in any case and possessive', () => {
    expect(stated.Traveller).toEqual({
      First: expect.stringMatching(/^Traveller-[0-9a-f]{8}$/),
      Last: expect.stringMatching(/^Traveller-[0-9a-f]{8}$/),
      Title: 'MRS',
    });
    const { First, Last } = stated.Traveller as Rec;
    expect(prose.Xq).toBe(`rebooked ${First} ${Last} after a call; ${Last}'s bags, ${Last}’s seat`);
  });

  it('phones announced by a word or in a field named for them, the same number the same mask', () => {
    expect(phones.LogText).toMatch(/^sync mobile=phone-[0-9a-f]{8} tel:phone-[0-9a-f]{8}$/);
    expect(phones.ContactPhone).toBe(String(phones.LogText).slice(12, 26));
  });

  it('identifiers are never masked, even where they hold a name word', () => {
    for (const r of [stated, prose, phones])
      expect({ ...r, Traveller: 0, Xq: 0, LogText: 0, ContactPhone: 0 }).toEqual({
        ...ids,
        Traveller: 0,
        Xq: 0,
        LogText: 0,
        ContactPhone: 0,
      });
  });
});

describe('East Asian surnames of one letter', () => {
  const MASKED = /^Traveller-[0-9a-f]{8}$/;
  /** A record naming the person in two fields, then a remark about them; the remark as masked. */
  const remark = (name: Rec, text: string): string => {
    const redact = createRedactor(true);
    const [, masked] = redact.records([{ Traveller: name }, { Remark: text }]);
    return String(masked.Remark);
  };

  it('masks the surname with the given name, written with or without a space, from two name fields', () => {
    for (const [last, first] of [
      ['王', '伟芳'],
      ['이', '민준'],
      ['𠮷', '野子'],
    ]) {
      for (const text of [
        `${last}${first}已办理登机手续`,
        `${last} ${first}님 좌석 변경`,
        `${last}\u3000${first}さん`,
      ]) {
        const out = remark({ LastName: last, FirstName: first }, text);
        const mask = out.match(/Traveller-[0-9a-f]{8}/)?.[0] ?? '';
        expect(mask, `${text} -> ${out}`).toMatch(MASKED);
        // The surname went into the mask: nothing of the name before it.
        expect(out.startsWith(mask), `${text} -> ${out}`).toBe(true);
        expect(out).not.toContain(first);
      }
    }
  });

  it('masks a name field written with a space as one name in text without spaces', () => {
    const out = remark({ Name: '王 伟' }, '王伟已办理登机手续');
    expect(out).toMatch(/^Traveller-[0-9a-f]{8}已办理登机手续$/);
  });

  it('leaves a one-letter word alone where no known name follows it', () => {
    expect(remark({ LastName: '王', FirstName: '伟芳' }, '王先生已办理登机手续')).toBe('王先生已办理登机手续');
    expect(remark({ LastName: '王', FirstName: '伟芳' }, '李伟芳已办理登机手续')).toMatch(
      /^李Traveller-[0-9a-f]{8}已办理登机手续$/,
    );
  });
});
