/** Hand-made and generated ticket-coupon records for the results tests. */

export type Rec = Record<string, unknown>;

/**
 * 12 coupons, values chosen by hand so every expectation can be worked out on paper.
 * FlightDate offsets differ on purpose: K1 flies 2026-11-01 23:30 in New York (already
 * 2026-11-02 in UTC), K2 flies 2026-11-02 01:00 in Athens (still 2026-11-01 in UTC).
 */
export function coupons(): Rec[] {
  const rows: [string, string, string, string, string, string | null, string, string, number, boolean][] = [
    // RecordLocator, Account, FOPFare, FlightDate, Carrier, Passenger (LAST/FIRST), CouponSequenceNbr, TktNumber, FlownKM, IsVip
    [
      'K1AAAA',
      'ACME',
      '1000.00',
      '2026-11-01T23:30:00.000-05:00',
      'AA',
      'SMITH/JOHN MR',
      '1',
      '0011234567890',
      1200,
      false,
    ],
    [
      'K2BBBB',
      'ACME',
      '99.50',
      '2026-11-02T01:00:00.000+02:00',
      'BA',
      'SMITH/JOHN MR',
      '2',
      '0011234567891',
      800.5,
      true,
    ],
    ['K3CCCC', 'ACME', '250.25', '2026-11-05T10:00:00.000Z', 'LH', 'DOE/JANE MS', '1', '0011234567892', 300, false],
    [
      'K4DDDD',
      'ACME',
      '250.25',
      '2026-11-10T08:15:00.000-08:00',
      'AA',
      'ROE/RICHARD MR',
      '1',
      '0011234567893',
      4500,
      false,
    ],
    ['K5EEEE', 'ACME', '12.10', '2026-11-30T22:00:00.000Z', 'BA', null, '1', '0011234567894', 0, false],
    [
      'K6FFFF',
      'GLOBEX',
      '500.00',
      '2026-10-31T12:00:00.000Z',
      'LH',
      'MUELLER/ANNA MRS',
      '1',
      '0011234567895',
      650,
      true,
    ],
    [
      'K7GGGG',
      'GLOBEX',
      '0.99',
      '2026-11-15T06:45:00.000+01:00',
      'AA',
      'MUELLER/ANNA MRS',
      '2',
      '0011234567896',
      650,
      false,
    ],
    [
      'K8HHHH',
      'GLOBEX',
      '320.00',
      '2026-11-20T14:00:00.000-05:00',
      'BA',
      'NAKAMURA/KEN MR',
      '1',
      '0011234567897',
      10000,
      false,
    ],
    [
      'K9IIII',
      'GLOBEX',
      '45.45',
      '2026-12-01T00:30:00.000+09:00',
      'LH',
      'NAKAMURA/KEN MR',
      '2',
      '0011234567898',
      1100,
      false,
    ],
    [
      'KAJJJJ',
      'INITECH',
      '1500.00',
      '2026-11-12T09:00:00.000Z',
      'AA',
      'OKAFOR/CHIDI MR',
      '1',
      '0011234567899',
      5200,
      false,
    ],
    [
      'KBKKKK',
      'INITECH',
      '75.00',
      '2026-11-18T18:00:00.000Z',
      'BA',
      'OKAFOR/CHIDI MR',
      '2',
      '0011234567900',
      5200,
      false,
    ],
    [
      'KCLLLL',
      'UMBRELLA',
      '8.00',
      '2026-11-25T11:11:00.000-03:00',
      'LH',
      'SILVA/ANA MS',
      '1',
      '0011234567901',
      90,
      false,
    ],
  ];
  return rows.map(([loc, account, fare, date, carrier, pax, seq, tkt, km, vip], i) => {
    const [last, first] = (pax ?? '/').split(/[/ ]/);
    return {
      RecordLocator: loc,
      TktNumber: tkt,
      Passenger: pax,
      Account: account,
      FOPFare: fare,
      FlightDate: date,
      VndIssueDt: i === 11 ? null : `2026-10-${String(10 + i).padStart(2, '0')}T12:00:00.000Z`,
      Carrier: carrier,
      CouponSequenceNbr: seq,
      FlownKM: km,
      IsVip: vip,
      ExchangedForTicket: '',
      Tax5Amt: null,
      Remark: `Traveller requested aisle seat and special meal; confirm with the corporate travel desk before ticketing (${i}).`,
      EmailAddress: pax ? `${first.toLowerCase()}.${last.toLowerCase()}@example.com` : '',
      PhoneNbr: pax ? `+1 415 555 ${String(100 + i).padStart(4, '0')}` : '',
      Summary: { RecordLocator: loc, CreatedBy: i % 2 ? 'WEB' : 'AGENT' },
      Passengers: pax ? [{ FirstName: first, LastName: last }] : [],
      TicketNumbers: i % 3 === 0 ? [tkt, `${tkt}X`] : [tkt],
    };
  });
}

/** Fare in cents, to add up exactly. */
export function cents(fare: unknown): number {
  return Math.round(Number(fare) * 100);
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ACCOUNTS = [
  'ACME CORP',
  'GLOBEX',
  'INITECH',
  'UMBRELLA',
  'STARK IND',
  'WAYNE ENT',
  'HOOLI',
  'VANDELAY',
  'TYRELL',
  'CYBERDYNE',
  'SOYLENT',
  'WONKA',
];
const CARRIERS = ['AA', 'BA', 'LH', 'AF', 'KL', 'UA', 'DL', 'QF', 'EK', 'SQ'];
const AIRPORTS = ['JFK', 'LHR', 'FRA', 'CDG', 'AMS', 'SFO', 'ATL', 'SYD', 'DXB', 'SIN', 'ORD', 'LAX'];
const SURNAMES = ['SMITH', 'JONES', 'BROWN', 'GARCIA', 'MUELLER', 'NAKAMURA', 'OKAFOR', 'SILVA', 'DUBOIS', 'ROSSI'];
const FIRSTS = ['JOHN', 'MARIA', 'KEN', 'ANNA', 'CHIDI', 'ANA', 'LUC', 'GIULIA', 'PRIYA', 'OMAR'];

const PAD = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** 'YYYY-MM-DDTHH' for every hour of `days` days from `start` (ISO strings built cheaply). */
function hours(start: number, days: number): string[] {
  return Array.from({ length: days * 24 }, (_, h) => new Date(start + h * 3_600_000).toISOString().slice(0, 13));
}
const NOVEMBER = hours(Date.UTC(2026, 10, 1), 30);
const SEP_OCT = hours(Date.UTC(2026, 8, 1), 61);

/** n realistic TicketCouponStatusRecord-like records (~30 fields each). */
export function generateCoupons(n: number, seed = 7): Rec[] {
  const r = rng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
  const instant = (hoursList: string[]) => `${pick(hoursList)}:${pick(PAD)}:${pick(PAD)}.000Z`;
  const out: Rec[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const fare = (r() * 3000 + 50).toFixed(2);
    const tax = (r() * 300).toFixed(2);
    const flight = instant(NOVEMBER);
    const last = pick(SURNAMES);
    const first = pick(FIRSTS);
    out[i] = {
      CompanyName: 'Example Travel',
      TktNumber: `016${String(1_000_000_000 + i)}`,
      RN: String(i + 1),
      AirTktSegId: String(500_000 + i),
      VndIssueDt: instant(SEP_OCT),
      RecordLocator: `R${(i * 7919).toString(36).toUpperCase().padStart(5, '0')}`,
      Passenger: `${last}/${first}`,
      TravAgntID: String(100 + Math.floor(r() * 40)),
      OwningConsultantID: `C${Math.floor(r() * 25)}`,
      FOPFare: fare,
      BaseFare: (Number(fare) - Number(tax)).toFixed(2),
      FOP: pick(['CC', 'CASH', 'INVOICE']),
      TotalTax: tax,
      Tax1Code: 'US',
      Tax1Amt: (Number(tax) / 2).toFixed(2),
      Account: pick(ACCOUNTS),
      ExchangedForTicket: '',
      CouponSequenceNbr: String(1 + Math.floor(r() * 4)),
      Carrier: pick(CARRIERS),
      BoardPoint: pick(AIRPORTS),
      OffPoint: pick(AIRPORTS),
      FlightDate: flight,
      FlightServiceClass: pick(['Y', 'J', 'F', 'W']),
      FareBasis: `${pick(['Y', 'J', 'K', 'M'])}${pick(['OW', 'RT', 'FLEX'])}`,
      FlightCouponStatus: pick(['OPEN', 'USED', 'EXCH', 'RFND', 'VOID']),
      DateLastChecked: flight,
      PCC: pick(['NYC1', 'LON2', 'FRA3']),
      OwningCompanyCode: 'ACME',
      CreditValue: Math.round(r() * 10000) / 100,
      FlownKM: Math.floor(r() * 12000),
      PNRCreationDate: null,
      ServiceRef: 9_000_000 + i,
    };
  }
  return out;
}
