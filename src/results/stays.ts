/**
 * Who is at a place during a window, read from one traveller's air itinerary (travellers_at;
 * README, "Duty of care"). Pure: the legs come in, the stays at the place come out, each with
 * its status, its bounds and the legs it rests on. Times are local wall-clock times at the
 * place ('YYYY-MM-DDTHH:MM'), as itineraries write them, so they compare as text.
 *
 * The rules:
 * - The legs are one traveller's, from all of their bookings: each booking's in segment order,
 *   the bookings merged by departure (inTravelOrder), so out on one booking and back on another
 *   is one stay.
 * - A leg whose booking holds no time of day for it is placed by its date ('YYYY-MM-DD'): it
 *   compares as that day's midnight with the window (whose bounds are midnights), and a
 *   connection through it is one only when it is one whatever the time.
 * - Only confirmed legs count (ACTIVE_STATUSES); a leg in another status is named in the
 *   reason when the stay's end cannot be decided without it.
 * - A stay begins with a flight into the place (from outside it) and ends with the next flight
 *   out of it. A trip whose first flight leaves the place starts there: the traveller is
 *   taken to be based there before it (and after a final flight back into it).
 * - Passing through: the flight out leaves within CONNECTION_HOURS of the arrival and goes on
 *   somewhere other than where the arriving flight came from. Such a traveller is not "in place".
 * - Undecided: a flight in with no flight out after it (the booking does not start at the
 *   place), or a gap: after arriving, the next flight leaves from another place; or a flight
 *   out whose previous flight arrived somewhere else.
 * - Status in the window [from 00:00, to + 1 day 00:00): arriving (arrives in it, leaves after
 *   it or not at all), leaving (there before it, leaves in it), arriving and leaving (both in
 *   it), in place (there before it and after it); based here for a traveller whose booking
 *   starts at the place and who neither arrives nor leaves in the window (at home, presumably).
 */

export const CONNECTION_HOURS = 12;
/** Segment statuses that count as a confirmed or held seat. */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['HK', 'KK', 'TK', 'GK', 'RR', 'KL', 'HS', 'SS']);

export interface Leg {
  /** The booking holding the flight (RecordLocator), and any other of the traveller's bookings holding it too. */
  booking?: string;
  alsoIn?: string[];
  segmentNbr: number | null;
  /** Carrier code and flight number, e.g. 'SQ317'. */
  flight: string;
  from: string;
  to: string;
  /** Local departure time at `from`, 'YYYY-MM-DDTHH:MM', or its day alone ('YYYY-MM-DD') where no time is held. */
  departure: string;
  /** Local arrival time at `to`, or its day alone. */
  arrival: string;
  status: string;
}

export type StayStatus =
  | 'in place'
  | 'leaving'
  | 'arriving'
  | 'arriving and leaving'
  | 'based here'
  | 'passing through'
  | 'undecided';

/**
 * The order answers list stays in: who is there or may be there first (in place, arriving,
 * leaving, passing through, undecided), people based at the place last: the first answer's
 * text shows the ones that matter before it runs out of room.
 */
export const STATUS_ORDER: readonly StayStatus[] = [
  'in place',
  'arriving',
  'arriving and leaving',
  'leaving',
  'passing through',
  'undecided',
  'based here',
];

export interface EvidenceLeg {
  Role: string;
  RecordLocator: string | null;
  SegmentNbr: number | null;
  Flight: string;
  BoardPoint: string;
  OffPoint: string;
  Departure: string;
  Arrival: string;
  SegmentStatus: string;
}

export interface Stay {
  status: StayStatus;
  /** Arrival at the place; null when before the booking (based there) or unknown. */
  from: string | null;
  /** Departure from the place; null when after the booking (based there) or unknown. */
  to: string | null;
  reason: string;
  evidence: EvidenceLeg[];
  /** The booking starts at the place: the traveller is taken to be based there. */
  home?: boolean;
}

export interface Window {
  /** First instant in the window, 'YYYY-MM-DDT00:00'. */
  start: string;
  /** First instant after it. */
  end: string;
}

interface OpenStay {
  arrival: Leg | null;
  /** The booking starts at the place. */
  home: boolean;
}

/** A stay as found, with the instants that bound an undecided one for the window check. */
type Found = Stay & { earliest?: string; latest?: string };

/** The stays at `place` (its airports) that touch the window, in itinerary order. */
export function staysAt(legs: readonly Leg[], place: ReadonlySet<string>, window: Window): Stay[] {
  const all = inTravelOrder(legs);
  const active = all.filter((l) => ACTIVE_STATUSES.has(l.status.toUpperCase()));
  const inside = (code: string) => place.has(code.toUpperCase());
  const home = active.length > 0 && inside(active[0].from);
  const found: Found[] = [];
  let open: OpenStay | null = null;
  active.forEach((leg, i) => {
    if (open && !inside(leg.from)) {
      // After arriving, the next flight leaves from elsewhere: how they left is not booked.
      found.push(gapAfter(open, leg));
      open = null;
    }
    if (inside(leg.from) && !inside(leg.to)) {
      const before = active.slice(0, i);
      if (open) found.push(closed(open, leg));
      else if (before.every((l) => inside(l.from) && inside(l.to))) found.push(closed({ arrival: null, home }, leg));
      else found.push(gapBefore(before[before.length - 1], leg));
      open = null;
    }
    if (!inside(leg.from) && inside(leg.to)) open = { arrival: leg, home };
  });
  if (open) found.push(noDeparture(open, all, place));
  return found
    .filter((s) => touches(s, window))
    .map(({ earliest: _e, latest: _l, ...stay }) => withStatus(stay, window));
}

/**
 * One traveller's legs in the order they are flown: each booking's in its itinerary order
 * (segment numbers: local times of different zones do not sort across them), the bookings'
 * sequences merged by departure (a trip split over bookings is one trip).
 */
export function inTravelOrder(legs: readonly Leg[]): Leg[] {
  const byBooking = new Map<string, Leg[]>();
  for (const l of legs) {
    const key = l.booking ?? '';
    const list = byBooking.get(key);
    if (list) list.push(l);
    else byBooking.set(key, [l]);
  }
  const sequences = [...byBooking.values()].map((list) =>
    list.every((l) => l.segmentNbr !== null) ? list.sort((a, b) => a.segmentNbr! - b.segmentNbr!) : list,
  );
  if (sequences.length <= 1) return sequences[0] ?? [];
  const out: Leg[] = [];
  const heads = sequences.map(() => 0);
  for (;;) {
    let pick = -1;
    sequences.forEach((seq, i) => {
      const leg = seq[heads[i]];
      if (leg && (pick < 0 || at(leg.departure) < at(sequences[pick][heads[pick]].departure))) pick = i;
    });
    if (pick < 0) return out;
    out.push(sequences[pick][heads[pick]++]);
  }
}

/** A time as text that compares with others: a day alone counts from its midnight (the window's bounds are midnights). */
export function at(time: string): string {
  return time.length === 10 ? `${time}T00:00` : time;
}

/** Whether a leg's time is its day alone (the booking holds no time of day). */
function dayOnly(time: string): boolean {
  return time.length === 10;
}

function evidence(role: string, leg: Leg): EvidenceLeg {
  return {
    Role: role,
    RecordLocator: [leg.booking, ...(leg.alsoIn ?? [])].filter(Boolean).join(', ') || null,
    SegmentNbr: leg.segmentNbr,
    Flight: leg.flight,
    BoardPoint: leg.from,
    OffPoint: leg.to,
    Departure: leg.departure,
    Arrival: leg.arrival,
    SegmentStatus: leg.status,
  };
}

/** A stay with both ends booked (or the booking starting at the place); its status is set by withStatus. */
function closed(open: OpenStay, out: Leg): Found {
  const arrival = open.arrival;
  if (!arrival) {
    return {
      status: 'in place',
      from: null,
      to: out.departure,
      reason: `based at ${out.from}: the booking starts there; leaves on ${out.flight} to ${out.to}`,
      evidence: [evidence('departure', out)],
      home: true,
    };
  }
  // A day without a time of day: the layover is at most from that day's start (arrival) or to its end (departure).
  const longest = minutesBetween(
    at(arrival.arrival),
    dayOnly(out.departure) ? `${out.departure}T23:59` : out.departure,
  );
  const layover = dayOnly(arrival.arrival) || dayOnly(out.departure) ? null : longest;
  const onward = out.to.toUpperCase() !== arrival.from.toUpperCase();
  const legs = [evidence('arrival', arrival), evidence('departure', out)];
  const missing = dayOnly(arrival.arrival)
    ? `no arrival time held for ${arrival.flight}`
    : `no departure time held for ${out.flight}`;
  const untimed = [arrival.arrival, out.departure].some(dayOnly) ? ` (${missing}: placed by its date)` : '';
  if (onward && longest !== null && longest < CONNECTION_HOURS * 60) {
    return {
      status: 'passing through',
      from: arrival.arrival,
      to: out.departure,
      reason:
        `connection: ${out.flight} leaves ${layover === null ? `at most ${duration(longest)}` : duration(layover)} ` +
        `after ${arrival.flight} arrives, on to ${out.to} (under ${CONNECTION_HOURS} h, onward` +
        `${sameBooking(arrival, out) ? ' in the same booking' : ''})${untimed}`,
      evidence: legs,
    };
  }
  return {
    status: 'in place',
    from: arrival.arrival,
    to: out.departure,
    reason: `arrives on ${arrival.flight} from ${arrival.from}, leaves on ${out.flight} to ${out.to}${splitNote(arrival, out)}${untimed}`,
    evidence: legs,
  };
}

function sameBooking(a: Leg, b: Leg): boolean {
  return (a.booking ?? '') === (b.booking ?? '');
}

/** Out on one booking and back on another: one stay, saying so. */
function splitNote(arrival: Leg, out: Leg): string {
  return sameBooking(arrival, out) ? '' : ` (one trip over two bookings: ${arrival.booking}, then ${out.booking})`;
}

/** Arrived, then the next flight leaves from elsewhere: gone by its departure, but since when is not booked. */
function gapAfter(open: OpenStay, next: Leg): Found {
  const arrival = open.arrival;
  const since = arrival ? `arriving on ${arrival.flight}` : 'the booking starts here';
  return {
    status: 'undecided',
    from: arrival?.arrival ?? null,
    to: null,
    reason:
      `itinerary gap: after ${since}, the next flight (${next.flight}) leaves from ${next.from} on ` +
      `${next.departure}; how and when they leave ${arrival?.to ?? 'the place'} is not booked`,
    evidence: [...(arrival ? [evidence('arrival', arrival)] : []), evidence('next flight', next)],
    latest: next.departure,
  };
}

/** Leaves the place, but the previous flight arrived elsewhere: there since after that arrival, when is not booked. */
function gapBefore(prev: Leg, out: Leg): Found {
  return {
    status: 'undecided',
    from: null,
    to: out.departure,
    reason:
      `itinerary gap: leaves on ${out.flight} from ${out.from}, but the previous flight (${prev.flight}) arrives at ` +
      `${prev.to} on ${prev.arrival}; how and when they arrive at ${out.from} is not booked`,
    evidence: [evidence('previous flight', prev), evidence('departure', out)],
    earliest: prev.arrival,
  };
}

function noDeparture(open: OpenStay, all: readonly Leg[], place: ReadonlySet<string>): Found {
  const arrival = open.arrival!;
  if (open.home) {
    return {
      status: 'in place',
      from: arrival.arrival,
      to: null,
      reason: `based at ${arrival.to}: returns on ${arrival.flight} to where the booking starts; no later flight`,
      evidence: [evidence('arrival', arrival)],
      home: true,
    };
  }
  const unconfirmed = all.find(
    (l) =>
      at(l.departure) > at(arrival.arrival) &&
      place.has(l.from.toUpperCase()) &&
      !ACTIVE_STATUSES.has(l.status.toUpperCase()),
  );
  return {
    status: 'undecided',
    from: arrival.arrival,
    to: null,
    reason: unconfirmed
      ? `no confirmed departure: ${unconfirmed.flight} on ${unconfirmed.departure} has status ${unconfirmed.status}`
      : `no departure found: no flight out of ${arrival.to} is booked after ${arrival.flight} arrives`,
    evidence: [evidence('arrival', arrival), ...(unconfirmed ? [evidence('not confirmed', unconfirmed)] : [])],
  };
}

/** Whether the stay can overlap the window: it begins before the window ends and ends after it starts. */
function touches(stay: Found, window: Window): boolean {
  const begins = stay.from ?? stay.earliest ?? null;
  const ends = stay.to ?? stay.latest ?? null;
  return (begins === null || at(begins) < window.end) && (ends === null || at(ends) >= window.start);
}

/** Decided stays: arriving, leaving, both, or in place, by where their ends fall. */
function withStatus(stay: Stay, window: Window): Stay {
  if (stay.status === 'passing through' || stay.status === 'undecided') return stay;
  return { ...stay, status: decidedStatus(stay.from, stay.to, !!stay.home, window) };
}

/** A stay's status by where its ends fall in the window (a flight's times or a hotel's days). */
export function decidedStatus(from: string | null, to: string | null, home: boolean, window: Window): StayStatus {
  const arrives = from !== null && at(from) >= window.start;
  const leaves = to !== null && at(to) < window.end;
  return arrives && leaves
    ? 'arriving and leaving'
    : arrives
      ? 'arriving'
      : leaves
        ? 'leaving'
        : home
          ? 'based here'
          : 'in place';
}

/** Minutes from one local time to another, or null when either is unreadable. */
export function minutesBetween(a: string, b: string): number | null {
  const ta = localMs(a);
  const tb = localMs(b);
  return ta === null || tb === null ? null : Math.round((tb - ta) / 60_000);
}

function localMs(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
}

function duration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}
