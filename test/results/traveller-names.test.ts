/**
 * The travellers a text names (results/traveller-names.ts) and the summary's count of them
 * (summarize.ts, catalog travellerLists): one name, several, the same name twice in a text.
 */
import { expect, it } from 'vitest';
import { summarize } from '../../src/results/summarize.js';
import { travellerNames } from '../../src/results/traveller-names.js';

it('splits a text at commas and semicolons, the spaces around them dropped; one name stays as written', () => {
  expect(travellerNames('')).toEqual([]);
  expect(travellerNames('DOE/JANE MS')).toEqual(['DOE/JANE MS']);
  expect(travellerNames('  DOE/JANE MS ')).toEqual(['  DOE/JANE MS ']);
  expect(travellerNames('DOE/JANE MS, DOE/JOHN MR')).toEqual(['DOE/JANE MS', 'DOE/JOHN MR']);
  expect(travellerNames('DOE/JANE MS ;DOE/JOHN MR,  ROE/AL')).toEqual(['DOE/JANE MS', 'DOE/JOHN MR', 'ROE/AL']);
  expect(travellerNames(', ;')).toEqual([]);
  expect(travellerNames('DOE/JANE MS,')).toEqual(['DOE/JANE MS']);
});

it('counts travellers by the records naming them, a name written twice in one text once', () => {
  const Passengers = [
    'DOE/JANE MS',
    'DOE/JANE MS, DOE/JOHN MR',
    'DOE/JOHN MR; DOE/JOHN MR',
    'ROE/AL MR',
    'DOE/JANE MS',
    'ROE/AL MR, DOE/JANE MS',
  ];
  const profile = summarize(
    Passengers.map((p) => ({ Passengers: p })),
    { report: 'air_segments_by_date' },
  ).fields.Passengers;
  expect(profile.travellers).toEqual({
    distinct: 3,
    // Records naming more than one traveller ('DOE/JOHN MR' twice names one).
    several: 2,
    top: [
      { value: 'DOE/JANE MS', count: 4 },
      { value: 'DOE/JOHN MR', count: 2 },
      { value: 'ROE/AL MR', count: 2 },
    ],
  });
});
