/**
 * The tour's question across two reports (`npm run demo`, step 4): which travellers at a place
 * hold open coupons. A coupon is a traveller's when it is on one of the bookings their stay
 * rests on ('A, B' when it spans two) and names them as its Passenger: a booking's coupons
 * are not every co-traveller's (joined on the booking alone, two people on one booking each
 * counted the other's coupons).
 */
export function openCouponsOfTravellersSql(travellersTable: string, couponsTable: string): string {
  return (
    'SELECT t.Traveller, t.Status, t.RecordLocator, COUNT(*) AS open_coupons, ' +
    'COUNT(DISTINCT c.TktNumber) AS tickets, GROUP_CONCAT(DISTINCT c.Carrier) AS carriers ' +
    `FROM ${travellersTable} t JOIN ${couponsTable} c ` +
    "ON (', ' || t.RecordLocator || ',') LIKE ('%, ' || c.RecordLocator || ',%') AND c.Passenger = t.Traveller " +
    'GROUP BY t.Traveller, t.Status, t.RecordLocator ORDER BY t.Traveller'
  );
}
