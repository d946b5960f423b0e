/**
 * Every transaction answers its documented shape: the envelope kind and the record fields and
 * types of the published interface (transcribed in ./shapes.ts, independently of the
 * sandbox's code; docs/upstream.md, "Envelope").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { MIN_VALUE_DATE } from '../../src/upstream/service-date.js';
import { getJson, recordsOf } from './helpers.js';
import { CASES, SHAPES, type T } from './shapes.js';

const SERVICE_DATE = /^\/Date\(-?\d+([+-]\d{4})?\)\/$/;

function checkType(value: unknown, t: T): boolean {
  switch (t) {
    case 's':
      return typeof value === 'string';
    case 'i':
      return Number.isInteger(value);
    case 'n':
      return typeof value === 'number';
    case 'b':
      return typeof value === 'boolean';
    case 'd':
      return typeof value === 'string' && SERVICE_DATE.test(value);
    case 'a':
      return Array.isArray(value);
    case 'o':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

function checkRecord(type: string, r: Record<string, unknown>): void {
  const shape = SHAPES[type];
  for (const [name, t] of Object.entries(shape.fields)) {
    if (!(name in r)) {
      if (shape.optional?.includes(name)) continue;
      throw new Error(`${type}: missing ${name} in ${JSON.stringify(r).slice(0, 300)}`);
    }
    if (!checkType(r[name], t)) throw new Error(`${type}.${name}: expected ${t}, got ${JSON.stringify(r[name])}`);
  }
  for (const name of Object.keys(r)) {
    if (!(name in shape.fields)) throw new Error(`${type}: unexpected member ${name}`);
  }
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ size: 800 });
});
afterAll(async () => {
  await sb.close();
});

describe('every transaction answers its documented shape', () => {
  it.each(CASES)('%s (%s of %s)', async (path, kind, type, params) => {
    const p: Record<string, string> = { ...params, Limit: '60' };
    if (path === '/PNRSegments') {
      const b = sb.dataset.bookings.find(
        (x) => x.air.length > 0 && x.cars.length > 0 && x.hotels.length > 0 && x.tickets.length > 0,
      )!;
      p.RecordLocator = b.recordLocator;
    }
    const env = await getJson(sb, path, p);
    expect(env.ResponseMetadata.Success).toBe(true);
    expect(env.ResponseError).toBeUndefined();
    expect(env.ResponseMetadata.HasCache).toBe(true);
    const cache = env.ResponseMetadata.CacheMetadata!;
    expect(typeof cache.IsFromCache).toBe('boolean');
    expect(cache.CachedAt).toMatch(SERVICE_DATE);
    expect(cache.CacheExpiresAt).toMatch(SERVICE_DATE);
    if (kind === 'item') {
      expect(Array.isArray(env.ResponseReport)).toBe(false);
      expect(Object.keys(env.ResponseReport!)).toEqual(['Item']);
    } else {
      expect(Array.isArray(env.ResponseReport)).toBe(true);
    }
    const records = recordsOf(env);
    expect(records.length).toBeGreaterThan(0);
    const unpaged = path === '/FindBookings' || path === '/TicketsIssuedByNumber';
    if (unpaged) {
      expect(env.ResponseMetadata.HasPaging).toBe(false);
      expect(env.ResponseMetadata.PagingMetadata).toBeUndefined();
    } else {
      const pm = env.ResponseMetadata.PagingMetadata!;
      expect(env.ResponseMetadata.HasPaging).toBe(true);
      expect(pm.Offset).toBe('0');
      expect(pm.Limit).toBe('60');
      expect(pm.ResponseRecords).toBe(records.length);
      expect(pm.TotalRecords).toBeGreaterThanOrEqual(records.length);
    }
    if (type) for (const r of records) checkRecord(type, r);
  });

  it('fills BookingDetail lists with their documented members', async () => {
    const b = sb.dataset.bookings.find((x) => x.air.length >= 2 && x.tickets.length > 0)!;
    const [detail] = recordsOf(
      await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'All' }),
    );
    const pax = (detail.Passengers as Array<Record<string, unknown>>)[0];
    expect(Object.keys(pax)).toEqual([
      'Id',
      'FirstName',
      'LastName',
      'FrequentFlyers',
      'SequenceNbr',
      'LastNameElement',
      'IsVip',
      'TravellerGUID',
      'CRMItems',
    ]);
    const itinerary = detail.Itinerary as Array<Record<string, unknown>>;
    const allowed = [
      'SegmentType',
      'SegmentNbr',
      'BoardPoint',
      'OffPoint',
      'OperatorCode',
      'OperatorService',
      'SegmentStatus',
      'DepartureTimeFormatted',
      'ArrivalTimeFormatted',
      'ChangeOfDayFormatted',
      'ServiceCode',
      'StartDate',
      'EndDate',
      'TicketNumber',
      'VendorLocators',
      'EquipmentCode',
      'Equipment',
    ];
    expect(itinerary.length).toBe(b.segments.length);
    for (const seg of itinerary) for (const k of Object.keys(seg)) expect(allowed).toContain(k);
    expect(itinerary.filter((s) => s.SegmentType === 'AIR').map((s) => s.BoardPoint)).toEqual(
      b.air.map((a) => a.from.code),
    );
    const tickets = detail.Tickets as Array<Record<string, unknown>>;
    expect(tickets.map((t) => t.TicketNumber)).toEqual(b.tickets.map((t) => t.number));
    expect(Object.keys(tickets[0])).toEqual(['SegmentNbr', 'TicketNumber', 'TicketType', 'TicketDetailsAvailable']);
    const versions = detail.Versions as Array<Record<string, unknown>>;
    expect(versions[0].AirSegs).toBe(b.air.length);
    expect(Object.keys((detail.CustomFields as Array<Record<string, unknown>>)[0])).toEqual([
      'PNRPropertiesCustomFieldID',
      'RecordLocator',
      'PNRCreationDate',
      'FieldName',
      'FieldValue',
      'CustomFieldID',
      'CreationDateTime',
      'ElementNumber',
      'GDS',
    ]);
    // Default LoadOptions: the scalars plus Passengers and Itinerary only.
    const [plain] = recordsOf(await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator }));
    expect(Object.keys(plain)).toContain('Passengers');
    expect(Object.keys(plain)).toContain('Itinerary');
    expect(Object.keys(plain)).not.toContain('Versions');
    const [phones] = recordsOf(
      await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'Phones,Emails' }),
    );
    expect(Object.keys(phones).filter((k) => Array.isArray(phones[k]))).toEqual(['Phones', 'Emails']);
  });

  it("answers PNRSegments with the booking's segments and ticket coupons", async () => {
    const b = sb.dataset.bookings.find(
      (x) => x.air.length >= 2 && x.cars.length > 0 && x.hotels.length > 0 && x.tickets.length > 0,
    )!;
    const [rep] = recordsOf(await getJson(sb, '/PNRSegments', { RecordLocator: b.recordLocator }));
    const summary = rep.Summary as Record<string, unknown>;
    const segments = rep.Segments as Record<string, Array<Record<string, unknown>>>;
    expect(summary.RecordLocator).toBe(b.recordLocator);
    expect(Object.keys(segments)).toEqual(['AirSegments', 'CarSegments', 'HotelSegments', 'PassiveSegments']);
    expect(segments.AirSegments.map((s) => s.FlightNbr)).toEqual(b.air.map((a) => a.flightNbr));
    expect(segments.CarSegments).toHaveLength(b.cars.length);
    expect(segments.HotelSegments).toHaveLength(b.hotels.length);
    const tickets = summary.Tickets as Array<{ Coupons: Array<Record<string, string>> }>;
    for (const t of tickets) {
      expect(t.Coupons.map((c) => [c.CouponBoardPoint, c.CouponOffPoint, c.FlightNbr])).toEqual(
        segments.AirSegments.map((s) => [s.BoardPoint, s.OffPoint, s.FlightNbr]),
      );
    }
    const onlyAir = recordsOf(
      await getJson(sb, '/PNRSegments', { RecordLocator: b.recordLocator, SegmentType: 'AIR' }),
    )[0];
    const only = onlyAir.Segments as Record<string, unknown[]>;
    expect(only.AirSegments.length).toBe(b.air.length);
    expect(only.CarSegments).toEqual([]);
    expect(only.HotelSegments).toEqual([]);
  });

  it('writes MinValue where a nullable date has no value', async () => {
    const hotels = sb.report('HotelSegments', {}) as Array<Record<string, unknown>>;
    expect(hotels.some((h) => h.SegmentCreationDate === MIN_VALUE_DATE)).toBe(true);
    const arrivals = sb.report('PassengerArrivals', {}) as Array<Record<string, unknown>>;
    const unticketed = arrivals.filter((a) => a.PNRTicketedDate === MIN_VALUE_DATE);
    expect(unticketed.length).toBeGreaterThan(0);
    for (const a of unticketed) {
      const b = sb.dataset.bookings.find((x) => x.recordLocator === a.RecordLocator)!;
      expect(b.tickets).toHaveLength(0);
    }
  });
});
