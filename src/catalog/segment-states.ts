/**
 * What a segment's status code means for travel (docs/travel-meaning.md, "Segment states").
 * The codes are the GDS action/advice codes the airlines' and GDSs' published code lists
 * share (IATA's reservations interline message procedures, AIRIMP, as Amadeus, Sabre and
 * Travelport print them): a code that holds a seat or room is confirmed, one that gave it up
 * or was refused is cancelled, one on a waiting list is waitlisted, one asked for and not
 * yet answered is requested. A code outside this table is `other`, and answers name it.
 */

export const SEGMENT_STATES = ['confirmed', 'cancelled', 'waitlisted', 'requested', 'other'] as const;
export type SegmentState = (typeof SEGMENT_STATES)[number];

const CODES: Readonly<Record<Exclude<SegmentState, 'other'>, readonly string[]>> = {
  // HK holds confirmed, KK/KL confirming (KL from the waitlist), TK confirmed after a schedule
  // change, RR reconfirmed, SS/HS sold, GK/PK passive (booked outside the GDS) confirmed.
  confirmed: ['HK', 'KK', 'KL', 'TK', 'RR', 'SS', 'HS', 'GK', 'PK'],
  // HX/XX/XK/XL/XR cancelled, UN flight not operating, UC/NO unable or no action taken,
  // WK/WL/WN the segment a schedule change replaced.
  cancelled: ['HX', 'XX', 'XK', 'XL', 'XR', 'XN', 'UN', 'UC', 'NO', 'WK', 'WL', 'WN'],
  // HL/LL waitlisted, TL waitlisted after a schedule change, US/UU unable to sell and
  // waitlisted, GL passive waitlist.
  waitlisted: ['HL', 'LL', 'TL', 'US', 'UU', 'GL'],
  // HN/PN/NN need (asked, not yet answered), TN after a schedule change, GN passive need.
  requested: ['HN', 'PN', 'NN', 'TN', 'GN'],
};

const STATE_OF = new Map<string, SegmentState>();
for (const [state, codes] of Object.entries(CODES) as [SegmentState, readonly string[]][]) {
  for (const code of codes) STATE_OF.set(code, state);
}

/** The state a status code means; `other` for a code outside the table or no code at all. */
export function segmentState(code: unknown): SegmentState {
  if (typeof code !== 'string') return 'other';
  return STATE_OF.get(code.trim().toUpperCase()) ?? 'other';
}
