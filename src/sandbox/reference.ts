/**
 * Static reference data for the synthetic agency: real IATA airports, carriers, car vendors,
 * hotel chains, and the agency's own companies, PCCs and client accounts. UTC offsets are
 * standard time (no daylight saving): enough for a simulator, and it keeps dates exact.
 */

export interface Airport {
  code: string;
  cityCode: string;
  cityName: string;
  countryCode: string;
  countryName: string;
  subregion: string;
  region: string;
  lat: number;
  lon: number;
  /** Minutes east of UTC. */
  offset: number;
}

type AirportRow = [string, string, string, string, string, string, string, number, number, number];

const AIRPORT_ROWS: AirportRow[] = [
  ['LHR', 'LON', 'London', 'GB', 'United Kingdom', 'WEU', 'EUR', 51.47, -0.45, 0],
  ['LGW', 'LON', 'London', 'GB', 'United Kingdom', 'WEU', 'EUR', 51.15, -0.19, 0],
  ['MAN', 'MAN', 'Manchester', 'GB', 'United Kingdom', 'WEU', 'EUR', 53.35, -2.27, 0],
  ['EDI', 'EDI', 'Edinburgh', 'GB', 'United Kingdom', 'WEU', 'EUR', 55.95, -3.37, 0],
  ['DUB', 'DUB', 'Dublin', 'IE', 'Ireland', 'WEU', 'EUR', 53.43, -6.27, 0],
  ['CDG', 'PAR', 'Paris', 'FR', 'France', 'WEU', 'EUR', 49.01, 2.55, 60],
  ['ORY', 'PAR', 'Paris', 'FR', 'France', 'WEU', 'EUR', 48.73, 2.38, 60],
  ['AMS', 'AMS', 'Amsterdam', 'NL', 'Netherlands', 'WEU', 'EUR', 52.31, 4.76, 60],
  ['FRA', 'FRA', 'Frankfurt', 'DE', 'Germany', 'WEU', 'EUR', 50.03, 8.56, 60],
  ['MUC', 'MUC', 'Munich', 'DE', 'Germany', 'WEU', 'EUR', 48.35, 11.79, 60],
  ['ZRH', 'ZRH', 'Zurich', 'CH', 'Switzerland', 'WEU', 'EUR', 47.46, 8.55, 60],
  ['GVA', 'GVA', 'Geneva', 'CH', 'Switzerland', 'WEU', 'EUR', 46.24, 6.11, 60],
  ['MAD', 'MAD', 'Madrid', 'ES', 'Spain', 'SEU', 'EUR', 40.47, -3.56, 60],
  ['BCN', 'BCN', 'Barcelona', 'ES', 'Spain', 'SEU', 'EUR', 41.3, 2.08, 60],
  ['FCO', 'ROM', 'Rome', 'IT', 'Italy', 'SEU', 'EUR', 41.8, 12.25, 60],
  ['MXP', 'MIL', 'Milan', 'IT', 'Italy', 'SEU', 'EUR', 45.63, 8.72, 60],
  ['CPH', 'CPH', 'Copenhagen', 'DK', 'Denmark', 'NEU', 'EUR', 55.62, 12.66, 60],
  ['ARN', 'STO', 'Stockholm', 'SE', 'Sweden', 'NEU', 'EUR', 59.65, 17.92, 60],
  ['OSL', 'OSL', 'Oslo', 'NO', 'Norway', 'NEU', 'EUR', 60.19, 11.1, 60],
  ['HEL', 'HEL', 'Helsinki', 'FI', 'Finland', 'NEU', 'EUR', 60.32, 24.95, 120],
  ['JFK', 'NYC', 'New York', 'US', 'United States', 'NAM', 'AME', 40.64, -73.78, -300],
  ['EWR', 'NYC', 'New York', 'US', 'United States', 'NAM', 'AME', 40.69, -74.17, -300],
  ['BOS', 'BOS', 'Boston', 'US', 'United States', 'NAM', 'AME', 42.36, -71.01, -300],
  ['IAD', 'WAS', 'Washington', 'US', 'United States', 'NAM', 'AME', 38.95, -77.46, -300],
  ['MIA', 'MIA', 'Miami', 'US', 'United States', 'NAM', 'AME', 25.79, -80.29, -300],
  ['ORD', 'CHI', 'Chicago', 'US', 'United States', 'NAM', 'AME', 41.98, -87.9, -360],
  ['LAX', 'LAX', 'Los Angeles', 'US', 'United States', 'NAM', 'AME', 33.94, -118.41, -480],
  ['SFO', 'SFO', 'San Francisco', 'US', 'United States', 'NAM', 'AME', 37.62, -122.38, -480],
  ['YYZ', 'YTO', 'Toronto', 'CA', 'Canada', 'NAM', 'AME', 43.68, -79.63, -300],
  ['YVR', 'YVR', 'Vancouver', 'CA', 'Canada', 'NAM', 'AME', 49.19, -123.18, -480],
  ['GRU', 'SAO', 'Sao Paulo', 'BR', 'Brazil', 'SAM', 'AME', -23.43, -46.47, -180],
  ['DXB', 'DXB', 'Dubai', 'AE', 'United Arab Emirates', 'MDE', 'MEA', 25.25, 55.36, 240],
  ['DOH', 'DOH', 'Doha', 'QA', 'Qatar', 'MDE', 'MEA', 25.27, 51.61, 180],
  ['JNB', 'JNB', 'Johannesburg', 'ZA', 'South Africa', 'SAF', 'MEA', -26.14, 28.25, 120],
  ['DEL', 'DEL', 'Delhi', 'IN', 'India', 'SAS', 'ASP', 28.57, 77.1, 330],
  ['BOM', 'BOM', 'Mumbai', 'IN', 'India', 'SAS', 'ASP', 19.09, 72.87, 330],
  ['SIN', 'SIN', 'Singapore', 'SG', 'Singapore', 'SEA', 'ASP', 1.36, 103.99, 480],
  ['KUL', 'KUL', 'Kuala Lumpur', 'MY', 'Malaysia', 'SEA', 'ASP', 2.75, 101.71, 480],
  ['BKK', 'BKK', 'Bangkok', 'TH', 'Thailand', 'SEA', 'ASP', 13.69, 100.75, 420],
  ['HKG', 'HKG', 'Hong Kong', 'HK', 'Hong Kong', 'NEA', 'ASP', 22.31, 113.91, 480],
  ['PEK', 'BJS', 'Beijing', 'CN', 'China', 'NEA', 'ASP', 40.08, 116.58, 480],
  ['PVG', 'SHA', 'Shanghai', 'CN', 'China', 'NEA', 'ASP', 31.14, 121.81, 480],
  ['ICN', 'SEL', 'Seoul', 'KR', 'South Korea', 'NEA', 'ASP', 37.46, 126.44, 540],
  ['NRT', 'TYO', 'Tokyo', 'JP', 'Japan', 'NEA', 'ASP', 35.77, 140.39, 540],
  ['HND', 'TYO', 'Tokyo', 'JP', 'Japan', 'NEA', 'ASP', 35.55, 139.78, 540],
  ['SYD', 'SYD', 'Sydney', 'AU', 'Australia', 'ANZ', 'ASP', -33.94, 151.18, 600],
  ['MEL', 'MEL', 'Melbourne', 'AU', 'Australia', 'ANZ', 'ASP', -37.67, 144.84, 600],
  ['AKL', 'AKL', 'Auckland', 'NZ', 'New Zealand', 'ANZ', 'ASP', -37.01, 174.79, 720],
];

export const AIRPORTS: readonly Airport[] = AIRPORT_ROWS.map(
  ([code, cityCode, cityName, countryCode, countryName, subregion, region, lat, lon, offset]) => ({
    code,
    cityCode,
    cityName,
    countryCode,
    countryName,
    subregion,
    region,
    lat,
    lon,
    offset,
  }),
);

export const AIRPORT_BY_CODE: ReadonlyMap<string, Airport> = new Map(AIRPORTS.map((a) => [a.code, a]));

export function airport(code: string): Airport {
  const a = AIRPORT_BY_CODE.get(code);
  if (!a) throw new Error(`unknown airport ${code}`);
  return a;
}

/** Great-circle distance in km. */
export function distanceKm(a: Airport, b: Airport): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)));
}

export interface Carrier {
  code: string;
  /** Three-digit ticketing (plating) prefix. */
  numeric: string;
  name: string;
  hubs: readonly string[];
}

export const CARRIERS: readonly Carrier[] = [
  { code: 'BA', numeric: '125', name: 'British Airways', hubs: ['LHR', 'LGW'] },
  { code: 'VS', numeric: '932', name: 'Virgin Atlantic', hubs: ['LHR', 'MAN'] },
  { code: 'EI', numeric: '053', name: 'Aer Lingus', hubs: ['DUB'] },
  { code: 'AF', numeric: '057', name: 'Air France', hubs: ['CDG'] },
  { code: 'KL', numeric: '074', name: 'KLM Royal Dutch Airlines', hubs: ['AMS'] },
  { code: 'LH', numeric: '220', name: 'Lufthansa', hubs: ['FRA', 'MUC'] },
  { code: 'LX', numeric: '724', name: 'Swiss International Air Lines', hubs: ['ZRH', 'GVA'] },
  { code: 'IB', numeric: '075', name: 'Iberia', hubs: ['MAD'] },
  { code: 'AZ', numeric: '055', name: 'ITA Airways', hubs: ['FCO'] },
  { code: 'SK', numeric: '117', name: 'SAS Scandinavian Airlines', hubs: ['CPH', 'ARN', 'OSL'] },
  { code: 'AY', numeric: '105', name: 'Finnair', hubs: ['HEL'] },
  { code: 'AA', numeric: '001', name: 'American Airlines', hubs: ['JFK', 'ORD', 'MIA'] },
  { code: 'UA', numeric: '016', name: 'United Airlines', hubs: ['EWR', 'ORD', 'SFO', 'IAD'] },
  { code: 'DL', numeric: '006', name: 'Delta Air Lines', hubs: ['JFK', 'BOS', 'LAX'] },
  { code: 'AC', numeric: '014', name: 'Air Canada', hubs: ['YYZ', 'YVR'] },
  { code: 'LA', numeric: '045', name: 'LATAM Airlines', hubs: ['GRU'] },
  { code: 'EK', numeric: '176', name: 'Emirates', hubs: ['DXB'] },
  { code: 'QR', numeric: '157', name: 'Qatar Airways', hubs: ['DOH'] },
  { code: 'SA', numeric: '083', name: 'South African Airways', hubs: ['JNB'] },
  { code: 'AI', numeric: '098', name: 'Air India', hubs: ['DEL', 'BOM'] },
  { code: 'SQ', numeric: '618', name: 'Singapore Airlines', hubs: ['SIN'] },
  { code: 'MH', numeric: '232', name: 'Malaysia Airlines', hubs: ['KUL'] },
  { code: 'TG', numeric: '217', name: 'Thai Airways', hubs: ['BKK'] },
  { code: 'CX', numeric: '160', name: 'Cathay Pacific', hubs: ['HKG'] },
  { code: 'CA', numeric: '999', name: 'Air China', hubs: ['PEK'] },
  { code: 'MU', numeric: '781', name: 'China Eastern Airlines', hubs: ['PVG'] },
  { code: 'KE', numeric: '180', name: 'Korean Air', hubs: ['ICN'] },
  { code: 'NH', numeric: '205', name: 'All Nippon Airways', hubs: ['HND', 'NRT'] },
  { code: 'JL', numeric: '131', name: 'Japan Airlines', hubs: ['HND', 'NRT'] },
  { code: 'QF', numeric: '081', name: 'Qantas', hubs: ['SYD', 'MEL'] },
  { code: 'NZ', numeric: '086', name: 'Air New Zealand', hubs: ['AKL'] },
];

export const CARRIER_BY_CODE: ReadonlyMap<string, Carrier> = new Map(CARRIERS.map((c) => [c.code, c]));

export const EQUIPMENT_LONG: ReadonlyArray<readonly [string, string]> = [
  ['359', 'Airbus A350-900'],
  ['388', 'Airbus A380-800'],
  ['333', 'Airbus A330-300'],
  ['77W', 'Boeing 777-300ER'],
  ['789', 'Boeing 787-9'],
];
export const EQUIPMENT_SHORT: ReadonlyArray<readonly [string, string]> = [
  ['320', 'Airbus A320'],
  ['32N', 'Airbus A320neo'],
  ['321', 'Airbus A321'],
  ['73H', 'Boeing 737-800'],
  ['E90', 'Embraer 190'],
];

/** Booking codes with their cabin and weight. */
export const BOOKING_CLASSES: ReadonlyArray<readonly [code: string, cabin: string, weight: number]> = [
  ['Y', 'Economy', 10],
  ['B', 'Economy', 8],
  ['M', 'Economy', 8],
  ['H', 'Economy', 6],
  ['K', 'Economy', 6],
  ['Q', 'Economy', 4],
  ['V', 'Economy', 3],
  ['W', 'Premium Economy', 5],
  ['E', 'Premium Economy', 2],
  ['J', 'Business', 6],
  ['C', 'Business', 4],
  ['D', 'Business', 3],
  ['F', 'First', 1],
];

export interface CarVendor {
  code: string;
  name: string;
}
export const CAR_VENDORS: readonly CarVendor[] = [
  { code: 'ZE', name: 'Hertz' },
  { code: 'ZI', name: 'Avis' },
  { code: 'ET', name: 'Enterprise' },
  { code: 'ZL', name: 'National' },
  { code: 'AL', name: 'Alamo' },
  { code: 'ZD', name: 'Budget' },
  { code: 'SX', name: 'Sixt' },
  { code: 'EP', name: 'Europcar' },
];
export const CAR_TYPES: readonly string[] = [
  'ECAR',
  'CCAR',
  'ICAR',
  'IDAR',
  'SCAR',
  'FCAR',
  'PCAR',
  'IFAR',
  'SFAR',
  'CDMR',
];

export interface HotelChain {
  code: string;
  name: string;
  brands: readonly string[];
  tier: number;
}
export const HOTEL_CHAINS: readonly HotelChain[] = [
  { code: 'MC', name: 'Marriott Hotels', brands: ['Marriott', 'Courtyard'], tier: 3 },
  { code: 'HH', name: 'Hilton Hotels', brands: ['Hilton', 'Hilton Garden Inn'], tier: 3 },
  { code: 'HI', name: 'Holiday Inn', brands: ['Holiday Inn', 'Holiday Inn Express'], tier: 2 },
  { code: 'IC', name: 'InterContinental Hotels', brands: ['InterContinental'], tier: 4 },
  { code: 'SI', name: 'Sheraton Hotels', brands: ['Sheraton'], tier: 3 },
  { code: 'WI', name: 'Westin Hotels', brands: ['The Westin'], tier: 3 },
  { code: 'RT', name: 'Accor Hotels', brands: ['Novotel', 'ibis', 'Pullman'], tier: 2 },
  { code: 'HY', name: 'Hyatt Hotels', brands: ['Hyatt Regency', 'Grand Hyatt'], tier: 3 },
  { code: 'FS', name: 'Four Seasons', brands: ['Four Seasons Hotel'], tier: 5 },
  { code: 'RD', name: 'Radisson Hotels', brands: ['Radisson Blu'], tier: 2 },
  { code: 'BW', name: 'Best Western', brands: ['Best Western Plus'], tier: 1 },
  { code: 'SL', name: 'Shangri-La Hotels', brands: ['Shangri-La'], tier: 4 },
];

export const CURRENCY_BY_COUNTRY: Readonly<Record<string, string>> = {
  GB: 'GBP',
  IE: 'EUR',
  FR: 'EUR',
  NL: 'EUR',
  DE: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  FI: 'EUR',
  CH: 'CHF',
  DK: 'DKK',
  SE: 'SEK',
  NO: 'NOK',
  US: 'USD',
  CA: 'CAD',
  BR: 'BRL',
  AE: 'AED',
  QA: 'QAR',
  ZA: 'ZAR',
  IN: 'INR',
  SG: 'SGD',
  MY: 'MYR',
  TH: 'THB',
  HK: 'HKD',
  CN: 'CNY',
  KR: 'KRW',
  JP: 'JPY',
  AU: 'AUD',
  NZ: 'NZD',
};

export const DIAL_CODES: Readonly<Record<string, string>> = {
  GB: '44',
  IE: '353',
  FR: '33',
  NL: '31',
  DE: '49',
  ES: '34',
  IT: '39',
  FI: '358',
  CH: '41',
  DK: '45',
  SE: '46',
  NO: '47',
  US: '1',
  CA: '1',
  BR: '55',
  AE: '971',
  QA: '974',
  ZA: '27',
  IN: '91',
  SG: '65',
  MY: '60',
  TH: '66',
  HK: '852',
  CN: '86',
  KR: '82',
  JP: '81',
  AU: '61',
  NZ: '64',
};

/** Rough value of one unit of each currency in USD, to keep prices plausible. */
export const USD_PER_UNIT: Readonly<Record<string, number>> = {
  GBP: 1.27,
  EUR: 1.08,
  CHF: 1.12,
  DKK: 0.145,
  SEK: 0.095,
  NOK: 0.093,
  USD: 1,
  CAD: 0.73,
  BRL: 0.2,
  AED: 0.27,
  QAR: 0.27,
  ZAR: 0.054,
  INR: 0.012,
  SGD: 0.74,
  MYR: 0.21,
  THB: 0.028,
  HKD: 0.128,
  CNY: 0.14,
  KRW: 0.00075,
  JPY: 0.0067,
  AUD: 0.66,
  NZD: 0.6,
};

export interface CompanyDef {
  code: string;
  id: number;
  name: string;
  countryCode: string;
  domain: string;
}
export const COMPANIES: readonly CompanyDef[] = [
  { code: 'TRV1', id: 1001, name: 'Travel One Ltd', countryCode: 'GB', domain: 'travelone.example' },
  {
    code: 'TRV2',
    id: 1002,
    name: 'Travel One Asia Pacific Pte Ltd',
    countryCode: 'SG',
    domain: 'travelone-apac.example',
  },
  { code: 'GLB1', id: 2001, name: 'Globe Business Travel Inc', countryCode: 'US', domain: 'globebt.example' },
];

export interface PccDef {
  code: string;
  companyCode: string;
  airport: string;
  iata: string;
  gds: string;
  crs: string;
}
export const PCCS: readonly PccDef[] = [
  { code: '1ABC', companyCode: 'TRV1', airport: 'LHR', iata: '91234567', gds: '1G', crs: 'Galileo' },
  { code: '2DEF', companyCode: 'TRV1', airport: 'MAN', iata: '91234578', gds: '1G', crs: 'Galileo' },
  { code: '7JKL', companyCode: 'TRV1', airport: 'DUB', iata: '93456712', gds: '1A', crs: 'Amadeus' },
  { code: '3GHI', companyCode: 'TRV2', airport: 'SIN', iata: '38765432', gds: '1A', crs: 'Amadeus' },
  { code: '4MNO', companyCode: 'TRV2', airport: 'SYD', iata: '02345678', gds: '1A', crs: 'Amadeus' },
  { code: '5PQR', companyCode: 'GLB1', airport: 'JFK', iata: '33456789', gds: '1S', crs: 'Sabre' },
  { code: '6STU', companyCode: 'GLB1', airport: 'SFO', iata: '05678912', gds: '1S', crs: 'Sabre' },
];

export interface AccountDef {
  code: string;
  name: string;
  companyCode: string;
  weight: number;
}
export const ACCOUNTS: readonly AccountDef[] = [
  { code: 'ACME', name: 'Acme Corporation', companyCode: 'TRV1', weight: 10 },
  { code: 'GLOBEX', name: 'Globex Corporation', companyCode: 'TRV1', weight: 8 },
  { code: 'INITECH', name: 'Initech Ltd', companyCode: 'TRV1', weight: 5 },
  { code: 'UMBRELLA', name: 'Umbrella Corporation', companyCode: 'TRV1', weight: 4 },
  { code: 'WONKA', name: 'Wonka Industries', companyCode: 'TRV1', weight: 2 },
  { code: 'STARK', name: 'Stark Industries', companyCode: 'TRV2', weight: 7 },
  { code: 'WAYNE', name: 'Wayne Enterprises', companyCode: 'TRV2', weight: 6 },
  { code: 'TYRELL', name: 'Tyrell Corporation', companyCode: 'TRV2', weight: 3 },
  { code: 'MASSIVE', name: 'Massive Dynamic', companyCode: 'TRV2', weight: 2 },
  { code: 'HOOLI', name: 'Hooli Inc', companyCode: 'GLB1', weight: 8 },
  { code: 'CYBERDYNE', name: 'Cyberdyne Systems', companyCode: 'GLB1', weight: 4 },
  { code: 'SOYLENT', name: 'Soylent Corp', companyCode: 'GLB1', weight: 3 },
  { code: 'VANDELAY', name: 'Vandelay Industries', companyCode: 'GLB1', weight: 2 },
  { code: 'PIEDPIPER', name: 'Pied Piper', companyCode: 'GLB1', weight: 2 },
];

export const FIRST_NAMES_M: readonly string[] = [
  'JAMES',
  'JOHN',
  'ROBERT',
  'MICHAEL',
  'DAVID',
  'WILLIAM',
  'THOMAS',
  'DANIEL',
  'MATTHEW',
  'ANDREW',
  'LUCAS',
  'OLIVER',
  'HENRY',
  'ARJUN',
  'WEI',
  'KENJI',
  'CARLOS',
  'MARCO',
  'LIAM',
  'NOAH',
];
export const FIRST_NAMES_F: readonly string[] = [
  'MARY',
  'PATRICIA',
  'JENNIFER',
  'LINDA',
  'ELIZABETH',
  'SARAH',
  'EMMA',
  'OLIVIA',
  'SOPHIA',
  'CHLOE',
  'PRIYA',
  'MEI',
  'YUKI',
  'LAURA',
  'GRACE',
  'HANNAH',
  'ISABELLA',
  'AMELIA',
  'NORA',
  'CLARA',
];
export const LAST_NAMES: readonly string[] = [
  'SMITH',
  'JONES',
  'WILLIAMS',
  'BROWN',
  'TAYLOR',
  'DAVIES',
  'EVANS',
  'WILSON',
  'THOMAS',
  'JOHNSON',
  'ROBERTS',
  'WALKER',
  'WRIGHT',
  'THOMPSON',
  'WHITE',
  'HUGHES',
  'EDWARDS',
  'GREEN',
  'HALL',
  'WOOD',
  'HARRIS',
  'LEWIS',
  'MARTIN',
  'JACKSON',
  'CLARKE',
  'CLARK',
  'TURNER',
  'HILL',
  'SCOTT',
  'COOPER',
  'MORRIS',
  'WARD',
  'MOORE',
  'KING',
  'WATSON',
  'BAKER',
  'HARRISON',
  'MORGAN',
  'PATEL',
  'YOUNG',
  'TAN',
  'LIM',
  'NG',
  'WONG',
  'CHEN',
  'SATO',
  'SUZUKI',
  'KIM',
  'PARK',
  'GARCIA',
  'MARTINEZ',
  'ROSSI',
  'MUELLER',
  'SCHMIDT',
  'DUBOIS',
  'NIELSEN',
  'KOWALSKI',
  'OBRIEN',
  'MURPHY',
  'SHARMA',
];

export const CONSULTANT_TEAMS: readonly string[] = [
  'Corporate A',
  'Corporate B',
  'VIP Desk',
  'Groups',
  'Online Support',
];

export const CUSTOM_FIELD_NAMES: readonly string[] = [
  'CostCentre',
  'ProjectCode',
  'EmployeeID',
  'Department',
  'TripReason',
  'ApproverEmail',
];
export const DEPARTMENTS: readonly string[] = [
  'SALES',
  'ENGINEERING',
  'FINANCE',
  'LEGAL',
  'MARKETING',
  'OPERATIONS',
  'HR',
];
export const TRIP_REASONS: readonly string[] = [
  'CLIENT MEETING',
  'CONFERENCE',
  'INTERNAL MEETING',
  'TRAINING',
  'PROJECT WORK',
  'SALES VISIT',
];

export const STREETS: readonly string[] = [
  'Orchard Road',
  'High Street',
  'Main Street',
  'Market Street',
  'Park Avenue',
  'Station Road',
  'Harbour Drive',
  'King Street',
  'Queen Street',
  'Riverside Walk',
  'Airport Boulevard',
  'Central Plaza',
];
