/**
 * Cities are not airports (docs/travel-meaning.md, "Places"): hotels and cars carry IATA city
 * codes (CityCode: NYC, LON), flights airport codes (BoardPoint, OffPoint: JFK, LHR). A
 * statement that compares one with the other matches only single-airport cities, silently;
 * its answer says so and names what to compare instead.
 */
const CITY = String.raw`(?:\w+\.)?(?:CityCode|PropertyCityCode)`;
const AIRPORT = String.raw`(?:\w+\.)?(BoardPoint|OffPoint)`;
const COMPARED = new RegExp(
  String.raw`${CITY}\s*(?:==?|<>|!=|\bin\b)\s*${AIRPORT}\b|\b${AIRPORT}\s*(?:==?|<>|!=)\s*${CITY}\b`,
  'i',
);

export function placeNotes(sql: string): string[] {
  const m = COMPARED.exec(sql);
  if (!m) return [];
  const airport = m[1] ?? m[2];
  const city = airport === 'BoardPoint' ? 'BoardCity' : 'OffCity';
  return [
    `This statement compares a city code (CityCode: NYC, LON) with an airport code (${airport}: JFK, LHR), which ` +
      `match only where a city has one airport of the same code: compare CityCode with ${city}, or join ` +
      `airports ON airports.airport = ${airport} and compare airports.city.`,
  ];
}
