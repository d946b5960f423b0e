/**
 * Counts in SQL and their basis (src/sql/count-check.ts): a booking's count summed over its
 * stays, and a traveller list counted distinct or grouped by (by name, by a name the statement
 * gives it, or by position), are answered with a note saying what they count; other
 * statements, and names only in comments or strings, get none.
 */
import { describe, expect, it } from 'vitest';
import { countNotes } from '../../src/sql/count-check.js';

const BOOKING =
  "TotalAirSegs is the booking's count, repeated on each of its rows: a total over the rows counts a booking once " +
  'per row; total it over SELECT DISTINCT RecordLocator, TotalAirSegs, ... to count each booking once.';
const list = (field: string, how: string) =>
  `${field} names a booking's travellers in one text (DOE/JANE MS, DOE/JOHN MR): ${how}, not travellers. ` +
  `query_report counts them a traveller at a time (groupBy ${field}, or countDistinct of it).`;

describe('sql count check', () => {
  it.each([
    [
      'a booking count summed over stays',
      'SELECT Account, SUM(TotalAirSegs) FROM h GROUP BY Account',
      'hotel_segments',
      [BOOKING],
    ],
    ['averaged, lower case', 'select avg(totalairsegs) from h', 'hotel_segments', [BOOKING]],
    ['counted once per booking already', 'SELECT SUM(NbrNights) FROM h', 'hotel_segments', []],
    ['named in a comment only', 'SELECT SUM(NbrNights) FROM h -- SUM(TotalAirSegs)', 'hotel_segments', []],
    ['named in a string only', "SELECT 'SUM(TotalAirSegs)' FROM h", 'hotel_segments', []],
    [
      'a traveller list counted distinct',
      'SELECT COUNT(DISTINCT Passengers) FROM a',
      'air_segments_by_date',
      [list('Passengers', 'COUNT(DISTINCT Passengers) counts distinct lists')],
    ],
    ['a traveller list counted, not distinct', 'SELECT COUNT(Passengers) FROM a', 'air_segments_by_date', []],
    [
      'grouped by a traveller list',
      'SELECT DestinationCities, PaxList, COUNT(*) FROM r GROUP BY DestinationCities, PaxList ORDER BY 3 DESC',
      'passenger_locations_by_routing',
      [list('PaxList', 'grouped by PaxList, each group is a list')],
    ],
    [
      'grouped by a traveller list by position',
      'SELECT Passengers, COUNT(*) FROM a GROUP BY 1 ORDER BY 2 DESC',
      'air_segments_by_date',
      [list('Passengers', 'grouped by Passengers, each group is a list')],
    ],
    [
      'grouped by a name given to a traveller list',
      'SELECT Passengers AS pax, COUNT(*) AS n FROM a GROUP BY pax',
      'air_segments_by_date',
      [list('Passengers', 'grouped by Passengers, each group is a list')],
    ],
    [
      'grouped by position in a subquery',
      'SELECT MAX(n) FROM (SELECT Account, PaxList, COUNT(*) AS n FROM r GROUP BY 1, 2)',
      'passenger_locations_by_routing',
      [list('PaxList', 'grouped by PaxList, each group is a list')],
    ],
    [
      'grouped by the position of another column',
      'SELECT CarrierCode, Passengers FROM a GROUP BY 1',
      'air_segments_by_date',
      [],
    ],
    [
      'grouped by the position of an expression of a traveller list',
      'SELECT upper(Passengers), COUNT(*) FROM a GROUP BY 1',
      'air_segments_by_date',
      [list('Passengers', 'grouped by Passengers, each group is a list')],
    ],
    [
      'grouped by a position after an expression with commas',
      'SELECT substr(CarrierCode, 1, 1), Passengers, COUNT(*) FROM a GROUP BY 1, 2',
      'air_segments_by_date',
      [list('Passengers', 'grouped by Passengers, each group is a list')],
    ],
    [
      'grouped by the position of an expression of another column',
      'SELECT substr(CarrierCode, 1, 1), Passengers FROM a GROUP BY 1',
      'air_segments_by_date',
      [],
    ],
    [
      "a booking's count summed through a name a CTE gives it",
      'WITH s AS (SELECT Account, TotalAirSegs AS segs FROM h) SELECT Account, SUM(segs) FROM s GROUP BY 1',
      'hotel_segments',
      [BOOKING],
    ],
    ['ordered by a traveller list only', 'SELECT Passengers FROM a ORDER BY Passengers', 'air_segments_by_date', []],
    ['another report without such fields', 'SELECT COUNT(DISTINCT Passengers) FROM t', 'qlog_forward', []],
  ])('%s', (_why, sql, report, notes) => {
    expect(countNotes(sql, [report])).toEqual(notes);
  });
});
