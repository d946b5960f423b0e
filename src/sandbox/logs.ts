/**
 * The agency's logs and activity, derived from its bookings: failed mid-office submissions,
 * queue forwards, partner forwarding results, QC comments and application user activity.
 * A separate seeded stream, so adding log kinds never changes the bookings.
 */

import { DAY_MS, localDay, MINUTE_MS } from './days.js';
import type { Booking, Dataset } from './model.js';
import { Rng } from './random.js';

const FAILURES = [
  ['Mid-office submission failed: missing cost centre', 'E102', 'CostCentre is required for this account'],
  ['Mid-office rejected the booking: unknown account code', 'E110', 'Account not mapped in mid-office'],
  ['Timeout waiting for back-office acknowledgement', 'T408', 'No acknowledgement within 120 s'],
  ['Profile synchronisation failed: traveller not found', 'E404', 'TravellerGUID not found in profile store'],
] as const;

/**
 * A working agency always has a few failures from the day before: "what went wrong in
 * yesterday's failed submissions?" finds some in the demo. Drawn from their own random stream,
 * so the rest of the dataset is the same with or without them.
 */
function addYesterdaysFailures(ds: Dataset, seed: number, lastId: number): number {
  const rng = Rng.derive(seed, 'yesterdays-failures');
  const yesterday = Math.floor(ds.nowMs / DAY_MS) * DAY_MS - DAY_MS;
  const pool = ds.bookings.filter((b) => b.createdMs < yesterday);
  let id = lastId;
  for (let i = rng.int(4, 7); i > 0 && pool.length; i--) {
    const b = rng.pick(pool);
    const [message, code, detail] = rng.pick(FAILURES);
    ds.failedSubmissions.push({
      id: (id += rng.int(1, 5)),
      booking: b,
      logMs: yesterday + rng.int(7 * 60, 22 * 60) * MINUTE_MS + rng.int(0, 59) * 1000,
      message,
      rawResponse: JSON.stringify({ status: 'REJECTED', code, detail, recordLocator: b.recordLocator }),
      eventType: rng.pick(['PNR_CREATE', 'PNR_UPDATE', 'TKT_ISSUE']),
    });
  }
  return id;
}

export function generateLogs(ds: Dataset, seed: number): void {
  const rng = Rng.derive(seed, 'logs');
  let failedId = 41_000;
  let qlogId = 260_000;
  let queueEntry = 5_300_000;
  let partnerId = 610_000;
  let qcId = 9_000;
  const after = (b: Booking, maxMinutes: number): number | null => {
    const ms = b.createdMs + rng.int(1, maxMinutes) * MINUTE_MS + rng.int(0, 59) * 1000;
    return ms <= ds.nowMs ? ms : null;
  };
  for (const b of ds.bookings) {
    if (rng.chance(0.035)) {
      for (let i = rng.int(1, 2); i > 0; i--) {
        const logMs = after(b, 3 * 24 * 60);
        if (logMs === null) continue;
        const [message, code, detail] = rng.pick(FAILURES);
        ds.failedSubmissions.push({
          id: (failedId += rng.int(1, 5)),
          booking: b,
          logMs,
          message,
          rawResponse: JSON.stringify({ status: 'REJECTED', code, detail, recordLocator: b.recordLocator }),
          eventType: rng.pick(['PNR_CREATE', 'PNR_UPDATE', 'TKT_ISSUE']),
        });
      }
    }
    if (rng.chance(0.12)) {
      const logMs = after(b, 2 * 24 * 60);
      if (logMs !== null) {
        ds.qlogForwards.push({
          id: (qlogId += rng.int(1, 9)),
          queueEntryId: (queueEntry += rng.int(1, 20)),
          booking: b,
          logMs,
          matchedOn: rng.pick(['Account', 'PCC', 'Remark RM*QC', 'Traveller VIP', 'Ticketing deadline']),
          destination: `${b.pcc.code}/${rng.pick(['50', '65', '70', '90'])}`,
        });
      }
    }
    if (rng.chance(0.25)) {
      for (let i = rng.int(1, 3); i > 0; i--) {
        const logMs = after(b, 5 * 24 * 60);
        if (logMs === null) continue;
        const partner = rng.pick(['Concur', 'SAP Travel', 'TripCase', 'Traxo', 'Crisis24']);
        const success = rng.chance(0.87);
        const reason = rng.pick([
          'HTTP 500 from partner endpoint',
          'timeout after 30 s',
          'HTTP 401: partner credentials rejected',
          'schema validation failed',
        ]);
        ds.partnerLogs.push({
          id: (partnerId += rng.int(1, 7)),
          booking: b,
          logMs,
          partner,
          success,
          message: success
            ? `Forwarded ${b.recordLocator} to ${partner}: HTTP 202 Accepted`
            : `Forwarding ${b.recordLocator} to ${partner} failed: ${reason}`,
        });
      }
    }
    if (rng.chance(0.08)) {
      for (let i = rng.int(1, 2); i > 0; i--) {
        const commentMs = after(b, 4 * 24 * 60);
        if (commentMs === null) continue;
        ds.qcComments.push({
          id: (qcId += rng.int(1, 4)),
          booking: b,
          consultant: b.consultant,
          commentMs,
          comment: rng.pick([
            'Missing cost centre in DI line',
            'Hotel not booked at preferred property',
            'Fare not lowest logical fare; reason code missing',
            'Traveller e-mail missing from PNR',
            'Ticketing time limit not queued',
            'Good booking, all policy fields complete',
            'Car booked outside preferred vendor list',
          ]),
        });
      }
    }
  }
  addYesterdaysFailures(ds, seed, failedId);
  const byTime =
    <T extends { id: number }>(key: (x: T) => number) =>
    (a: T, b: T) =>
      key(a) - key(b) || a.id - b.id;
  ds.failedSubmissions.sort(byTime((x) => x.logMs));
  ds.qlogForwards.sort(byTime((x) => x.logMs));
  ds.partnerLogs.sort(byTime((x) => x.logMs));
  ds.qcComments.sort(byTime((x) => x.commentMs));

  const reports = [
    'HotelSegments',
    'AirSegmentsByDate',
    'TicketCouponsByStatusCode',
    'CarSegmentsByDate',
    'PassengerArrivals',
    'BookingsWithActiveSegments',
  ];
  const count = Math.max(300, Math.round(ds.size / 2));
  let activityId = 70_000;
  for (let i = 0; i < count; i++) {
    const user = rng.pick(ds.appUsers);
    const ms = ds.nowMs - rng.int(1, 365 * 24 * 60) * MINUTE_MS - rng.int(0, 59) * 1000;
    const activity = rng.weighted([
      ['Login', 28],
      ['ViewDashboard', 14],
      ['RunReport', 34],
      ['DownloadReport', 14],
      ['EmailSubscription', 10],
    ] as const);
    const report = rng.pick(reports);
    const fromDay = localDay(ms, 0) - rng.int(1, 60);
    const details =
      activity === 'Login'
        ? 'Signed in from web application'
        : activity === 'ViewDashboard'
          ? 'Viewed dashboard Overview'
          : activity === 'EmailSubscription'
            ? `Scheduled e-mail of ${report} sent to ${user.email}`
            : `${report} DateStart=${ymd(fromDay)} ` +
              `DateEnd=${ymd(fromDay + rng.int(1, 31))}${activity === 'DownloadReport' ? ' format=csv' : ''}`;
    ds.activities.push({
      id: (activityId += rng.int(1, 3)),
      user,
      ms,
      activity,
      isDownload: activity === 'DownloadReport',
      details,
      frequentNonReport: activity === 'Login' || activity === 'ViewDashboard',
      emailSubscription: activity === 'EmailSubscription',
    });
  }
  ds.activities.sort(byTime((x) => x.ms));
}

function ymd(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}
