/**
 * Fields that name several travellers in one text, as the service writes a booking's
 * passengers on its segments (`DOE/JANE MS, DOE/JOHN MR`): a GDS name
 * (LAST/FIRST TITLE) holds no comma or semicolon, so those separate the names.
 */

/** The travellers a text names, in its order ([] for an empty text). */
export function travellerNames(text: string): string[] {
  return text.split(/\s*[,;]\s*/).filter(Boolean);
}
