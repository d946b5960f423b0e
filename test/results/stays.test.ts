/**
 * The stay rules of travellers_at (src/results/stays.ts) on itineraries the sandbox does not
 * hold: several stays in one booking, a country with two airports and a flight between them,
 * a second arrival without a departure between, legs listed out of order, a gap that ends
 * before the window, a day trip, and a layover exactly at the connection limit.
 */
import { describe, expect, it } from 'vitest';
import { type Leg, staysAt } from '../../src/results/stays.js';

const WEEK = { start: '2026-11-15T00:00', end: '2026-11-22T00:00' };
const SIN = new Set(['SIN']);

let nbr = 0;
function leg(flight: string, from: string, to: string, departure: string, arrival: string, status = 'HK'): Leg {
  nbr += 1;
  return { segmentNbr: nbr, flight, from, to, departure, arrival, status };
}

const brief = (legs: Leg[], place = SIN) =>
  staysAt(legs, place, WEEK).map((s) => [
    s.status,
    s.from,
    s.to,
    s.evidence.map((e) => `${e.Role}:${e.Flight}`).join(' '),
  ]);

describe('staysAt', () => {
  it('one booking visiting twice: a connection on the way out, a stay on the way back', () => {
    expect(
      brief([
        leg('SQ1', 'LHR', 'SIN', '2026-11-15T10:00', '2026-11-16T06:00'),
        leg('SQ2', 'SIN', 'SYD', '2026-11-16T09:00', '2026-11-16T19:00'),
        leg('SQ3', 'SYD', 'SIN', '2026-11-18T08:00', '2026-11-18T14:00'),
        leg('SQ4', 'SIN', 'LHR', '2026-11-25T23:00', '2026-11-26T06:00'),
      ]),
    ).toEqual([
      ['passing through', '2026-11-16T06:00', '2026-11-16T09:00', 'arrival:SQ1 departure:SQ2'],
      ['arriving', '2026-11-18T14:00', '2026-11-25T23:00', 'arrival:SQ3 departure:SQ4'],
    ]);
  });

  it('a day trip there and back within 12 hours is a stay, not a connection', () => {
    expect(
      brief([
        leg('MH1', 'KUL', 'SIN', '2026-11-17T07:00', '2026-11-17T08:00'),
        leg('MH2', 'SIN', 'KUL', '2026-11-17T19:00', '2026-11-17T20:00'),
      ]),
    ).toEqual([['arriving and leaving', '2026-11-17T08:00', '2026-11-17T19:00', 'arrival:MH1 departure:MH2']]);
  });

  it('a layover of exactly 12 hours onward is a stay; one minute less is a connection', () => {
    const via = (out: string) => [
      leg('BA1', 'LHR', 'SIN', '2026-11-16T00:00', '2026-11-16T08:00'),
      leg('BA2', 'SIN', 'SYD', out, '2026-11-17T06:00'),
    ];
    expect(brief(via('2026-11-16T20:00'))[0][0]).toBe('arriving and leaving');
    expect(brief(via('2026-11-16T19:59'))[0][0]).toBe('passing through');
  });

  it('a country: a flight between two of its airports keeps the traveller there', () => {
    const au = new Set(['SYD', 'MEL']);
    expect(
      brief(
        [
          leg('QF1', 'SIN', 'SYD', '2026-11-10T09:00', '2026-11-10T19:00'),
          leg('QF2', 'SYD', 'MEL', '2026-11-16T09:00', '2026-11-16T10:30'),
          leg('QF3', 'MEL', 'SIN', '2026-11-24T09:00', '2026-11-24T15:00'),
        ],
        au,
      ),
    ).toEqual([['in place', '2026-11-10T19:00', '2026-11-24T09:00', 'arrival:QF1 departure:QF3']]);
  });

  it('a second arrival without a departure between: the first stay is a gap, the second has no departure', () => {
    const stays = staysAt(
      [
        leg('NH1', 'NRT', 'SIN', '2026-11-14T09:00', '2026-11-14T15:00'),
        leg('NH2', 'KUL', 'SIN', '2026-11-18T09:00', '2026-11-18T10:00'),
      ],
      SIN,
      WEEK,
    );
    expect(stays.map((s) => [s.status, s.from, s.to])).toEqual([
      ['undecided', '2026-11-14T15:00', null],
      ['undecided', '2026-11-18T10:00', null],
    ]);
    expect(stays[0].reason).toBe(
      'itinerary gap: after arriving on NH1, the next flight (NH2) leaves from KUL on 2026-11-18T09:00; ' +
        'how and when they leave SIN is not booked',
    );
    expect(stays[1].reason).toBe('no departure found: no flight out of SIN is booked after NH2 arrives');
  });

  it('a gap whose next flight leaves before the window is not in the window', () => {
    expect(
      brief([
        leg('NH1', 'NRT', 'SIN', '2026-11-01T09:00', '2026-11-01T15:00'),
        leg('NH2', 'KUL', 'NRT', '2026-11-10T09:00', '2026-11-10T15:00'),
      ]),
    ).toEqual([]);
  });

  it('legs listed out of order are read in segment order; unconfirmed legs do not count', () => {
    const a = leg('EK1', 'DXB', 'SIN', '2026-11-12T03:00', '2026-11-12T14:00');
    const b = leg('EK2', 'SIN', 'DXB', '2026-11-17T01:00', '2026-11-17T04:00', 'HX');
    const c = leg('EK3', 'SIN', 'DXB', '2026-11-27T01:00', '2026-11-27T04:00');
    expect(brief([c, b, a])).toEqual([
      ['in place', '2026-11-12T14:00', '2026-11-27T01:00', 'arrival:EK1 departure:EK3'],
    ]);
  });

  it('a booking that starts at the place: based here until it leaves, and again after the last flight back', () => {
    expect(
      brief([
        leg('SQ5', 'SIN', 'HKG', '2026-11-28T09:00', '2026-11-28T13:00'),
        leg('SQ6', 'HKG', 'SIN', '2026-12-01T09:00', '2026-12-01T13:00'),
      ]),
    ).toEqual([['based here', null, '2026-11-28T09:00', 'departure:SQ5']]);
    expect(
      brief([
        leg('SQ7', 'SIN', 'HKG', '2026-11-02T09:00', '2026-11-02T13:00'),
        leg('SQ8', 'HKG', 'SIN', '2026-11-20T09:00', '2026-11-20T13:00'),
      ]),
    ).toEqual([['arriving', '2026-11-20T13:00', null, 'arrival:SQ8']]);
  });
});
