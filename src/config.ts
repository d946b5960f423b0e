/**
 * Configuration: every variable of README.md's configuration table, parsed and validated once.
 * Nothing else in the program reads process.env. Each variable also has a --kebab-case flag
 * (REPORTS_PAGE_SIZE -> --page-size) that wins over the variable.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The highest REPORTS_MAX_RECORDS, and so the most records any call may ask for (maxRecords). */
export const MAX_RECORDS_CEILING = 10_000_000;

export interface Config {
  baseUrl?: string;
  apiUsername?: string;
  apiKey?: string;
  userName?: string;
  owningCompanyCodes?: string[];
  timeZone: string;
  pageSize: number;
  concurrency: number;
  maxRecords: number;
  timeoutMs: number;
  callBudgetMs: number;
  redactPii: boolean;
  /** Demo mode: forced, or because no base URL/username/key were given. */
  demo: boolean;
  /** Why demo mode is on, for the start-up line and MCP instructions. */
  demoReason?: 'forced' | 'no-credentials';
  resultsMaxBytes: number;
  resultsTtlMs: number;
  /** Longest a sql_query statement may run before its worker is terminated. */
  sqlTimeoutMs: number;
  /** `--http [HOST:]PORT`: serve Streamable HTTP instead of stdio (README.md, "Serving a team over HTTP"). */
  http?: { host: string; port: number };
  httpToken?: string;
  /** Path of the JSON file of per-person tokens for HTTP mode. */
  httpUsersFile?: string;
  oidcIssuer?: string;
  oidcAudience?: string;
  redisUrl?: string;
  /** Folder export_report writes into (stdio mode). */
  exportDir: string;
  /** Folder where held results are kept, encrypted, across restarts (stdio mode); undefined
   *  when REPORTS_RESULTS_DIR is `off` (docs/held-results.md). */
  resultsDir?: string;
  /** Most bytes the results kept in resultsDir occupy. */
  resultsDiskBytes: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

interface VariableDef {
  env: string;
  flag: string;
  meaning: string;
  default?: string;
  /** Flags that take no value (`--demo`). */
  boolean?: boolean;
  secret?: boolean;
}

/** The configuration table: README's table follows it (`npm run docs`). */
export const VARIABLES: readonly VariableDef[] = [
  {
    env: 'REPORTS_BASE_URL',
    flag: 'base-url',
    meaning: "the service's base URL, e.g. https://reports.example.com/api",
  },
  { env: 'REPORTS_API_USERNAME', flag: 'api-username', meaning: 'API username, sent in X-SERVICE-API-USERNAME' },
  {
    env: 'REPORTS_API_KEY',
    flag: 'api-key',
    meaning: 'secret signing key; never logged, echoed or returned',
    secret: true,
  },
  {
    env: 'REPORTS_USER_NAME',
    flag: 'user-name',
    meaning: 'default UserName (an e-mail) for transactions that take it',
  },
  {
    env: 'REPORTS_OWNING_COMPANY_CODES',
    flag: 'owning-company-codes',
    meaning: 'comma list; pins the company scope: sent by default, codes outside it refused',
  },
  {
    env: 'REPORTS_TIMEZONE',
    flag: 'timezone',
    meaning: 'IANA zone in which today/yesterday/today-N resolve',
    default: "the system's",
  },
  { env: 'REPORTS_PAGE_SIZE', flag: 'page-size', meaning: 'Limit sent per upstream page', default: '500' },
  {
    env: 'REPORTS_CONCURRENCY',
    flag: 'concurrency',
    meaning: 'most upstream requests in flight at once: process-wide, or across all replicas with REPORTS_REDIS_URL',
    default: '4',
  },
  {
    env: 'REPORTS_MAX_RECORDS',
    flag: 'max-records',
    meaning: 'most records one report call fetches (a call may ask for fewer)',
    default: '50000',
  },
  { env: 'REPORTS_TIMEOUT_MS', flag: 'timeout-ms', meaning: 'timeout of one upstream request', default: '30000' },
  {
    env: 'REPORTS_CALL_BUDGET_MS',
    flag: 'call-budget-ms',
    meaning: 'time budget of one tool call; on expiry it returns what it has, marked incomplete',
    default: '40000',
  },
  {
    env: 'REPORTS_REDACT_PII',
    flag: 'redact-pii',
    meaning: 'mask traveller names, e-mails and phone numbers in everything returned',
    default: 'false',
    boolean: true,
  },
  {
    env: 'REPORTS_DEMO',
    flag: 'demo',
    meaning: 'force demo mode (the embedded sandbox with synthetic data)',
    default: 'false',
    boolean: true,
  },
  {
    env: 'REPORTS_RESULTS_MAX_MB',
    flag: 'results-max-mb',
    meaning:
      'memory that held results (and their SQL tables) occupy, measured from what holds them; least recently ' +
      "used evicted first, and evicting frees it (with REPORTS_REDIS_URL, Redis's maxmemory is the budget)",
    default: '256',
  },
  {
    env: 'REPORTS_RESULTS_TTL_MINUTES',
    flag: 'results-ttl-minutes',
    meaning: 'how long a held result stays queryable',
    default: '60',
  },
  {
    env: 'REPORTS_SQL_TIMEOUT_MS',
    flag: 'sql-timeout-ms',
    meaning: 'longest a sql_query statement may run; it is then stopped and the call says so',
    default: '10000',
  },
  {
    env: 'REPORTS_RESULTS_DIR',
    flag: 'results-dir',
    meaning:
      'where held results are kept, encrypted, across restarts in stdio mode (`off`: in memory only); see ' +
      '"Privacy and data"',
    default: "the user's cache folder",
  },
  {
    env: 'REPORTS_RESULTS_DISK_MB',
    flag: 'results-disk-mb',
    meaning: 'most disk the kept results occupy; least recently used deleted first',
    default: '1024',
  },
  {
    env: 'REPORTS_HTTP',
    flag: 'http',
    meaning: 'serve Streamable HTTP at /mcp on [HOST:]PORT instead of stdio; HOST defaults to 127.0.0.1',
  },
  {
    env: 'REPORTS_HTTP_TOKEN',
    flag: 'http-token',
    meaning: 'one shared bearer token for HTTP mode (everyone holding it is one identity)',
    secret: true,
  },
  {
    env: 'REPORTS_HTTP_USERS',
    flag: 'http-users',
    meaning: 'path of a JSON file of per-person tokens for HTTP mode',
  },
  {
    env: 'REPORTS_OIDC_ISSUER',
    flag: 'oidc-issuer',
    meaning: "accept the agency's identity provider's access tokens in HTTP mode (issuer URL)",
  },
  {
    env: 'REPORTS_OIDC_AUDIENCE',
    flag: 'oidc-audience',
    meaning: 'the audience those access tokens must carry',
  },
  {
    env: 'REPORTS_REDIS_URL',
    flag: 'redis-url',
    meaning: 'hold results and the concurrency limit in Redis, shared by replicas',
    secret: true,
  },
  {
    env: 'REPORTS_EXPORT_DIR',
    flag: 'export-dir',
    meaning: 'folder where export_report writes files (stdio mode only)',
    default: "a travel-reports folder in the user's Downloads",
  },
];

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A desktop host sends `${user_config.NAME}` for a setting the user left empty. */
function isUnset(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === '' || /^\$\{user_config\.[^}]*\}$/.test(value.trim());
}

/** Reads `--flag value`, `--flag=value` and bare boolean flags. Unknown flags are an error. */
function parseArgv(argv: readonly string[], problems: string[]): Map<string, string> {
  const byFlag = new Map(VARIABLES.map((v) => [v.flag, v]));
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      out.set('help', 'true');
      continue;
    }
    // Arguments are never echoed: a stray one, or the value after a mistyped flag
    // (`--apikey KEY`), may well be a secret.
    if (!arg.startsWith('--')) {
      problems.push(
        `Argument ${i + 1} (${arg.length} characters, not shown) is not understood; flags look like --page-size 500 (see --help).`,
      );
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const def = byFlag.get(name);
    if (!def) {
      // Its value, inline or next, goes with it unread.
      const valueFollows = eq === -1 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-');
      if (valueFollows) i++;
      problems.push(
        `Flag --${cut(name, 40)} is not known${eq !== -1 || valueFollows ? ' (its value is not shown)' : ''}; known ` +
          `flags: ${VARIABLES.map((v) => `--${v.flag}`).join(', ')}.`,
      );
      continue;
    }
    if (eq !== -1) out.set(def.env, arg.slice(eq + 1));
    else if (def.boolean && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))) out.set(def.env, 'true');
    else if (argv[i + 1] === undefined) problems.push(`Flag --${name} needs a value.`);
    else out.set(def.env, argv[++i]);
  }
  return out;
}

export interface LoadedConfig {
  config: Config;
  help: boolean;
}

/** Reads settings (a flag wins over its variable) and collects what is wrong with them. */
class SettingsReader {
  readonly problems: string[] = [];
  readonly flags: Map<string, string | undefined>;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    argv: readonly string[],
  ) {
    this.flags = parseArgv(argv, this.problems);
  }

  raw(name: string): string | undefined {
    const v = this.flags.has(name) ? this.flags.get(name) : this.env[name];
    return isUnset(v) ? undefined : v.trim();
  }

  integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      const range = `${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`;
      this.problems.push(`${name}: '${v}' is not valid; expected a whole number from ${range}.`);
      return fallback;
    }
    return Number(v);
  }

  boolean(name: string): boolean {
    const v = this.raw(name)?.toLowerCase();
    if (v === undefined) return false;
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    this.problems.push(`${name}: '${this.raw(name)}' is not valid; expected true or false.`);
    return false;
  }
}

/**
 * Parses argv and env into a Config. Collects every problem and throws one ConfigError
 * with one line per bad value, each naming the variable, what it got and what it wants.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): LoadedConfig {
  const r = new SettingsReader(env, argv);
  const baseUrl = readBaseUrl(r);
  const timeZone = readTimeZone(r);
  const owningCompanyCodes = readCompanyCodes(r);
  const userName = r.raw('REPORTS_USER_NAME');
  const apiUsername = r.raw('REPORTS_API_USERNAME');
  const apiKey = r.raw('REPORTS_API_KEY');
  const http = readHttp(r);
  const forced = r.boolean('REPORTS_DEMO');
  const given = countCredentials(r, forced);

  const config: Config = {
    baseUrl,
    apiUsername,
    apiKey,
    userName,
    owningCompanyCodes,
    get timeZone() {
      return timeZone ?? systemTimeZone();
    },
    pageSize: r.integer('REPORTS_PAGE_SIZE', 500, 1, 100_000),
    concurrency: r.integer('REPORTS_CONCURRENCY', 4, 1, 64),
    maxRecords: r.integer('REPORTS_MAX_RECORDS', 50_000, 1, MAX_RECORDS_CEILING),
    timeoutMs: r.integer('REPORTS_TIMEOUT_MS', 30_000, 100),
    callBudgetMs: r.integer('REPORTS_CALL_BUDGET_MS', 40_000, 100),
    redactPii: r.boolean('REPORTS_REDACT_PII'),
    demo: forced || given === 0,
    demoReason: forced ? 'forced' : given === 0 ? 'no-credentials' : undefined,
    resultsMaxBytes: r.integer('REPORTS_RESULTS_MAX_MB', 256, 1, 1_000_000) * 1024 * 1024,
    resultsTtlMs: r.integer('REPORTS_RESULTS_TTL_MINUTES', 60, 1, 7 * 24 * 60) * 60_000,
    sqlTimeoutMs: r.integer('REPORTS_SQL_TIMEOUT_MS', 10_000, 100, 600_000),
    http,
    httpToken: r.raw('REPORTS_HTTP_TOKEN'),
    httpUsersFile: r.raw('REPORTS_HTTP_USERS'),
    oidcIssuer: r.raw('REPORTS_OIDC_ISSUER'),
    oidcAudience: r.raw('REPORTS_OIDC_AUDIENCE'),
    redisUrl: r.raw('REPORTS_REDIS_URL'),
    exportDir: r.raw('REPORTS_EXPORT_DIR') ?? join(homedir(), 'Downloads', 'travel-reports'),
    resultsDir: readResultsDir(r, env),
    resultsDiskBytes: r.integer('REPORTS_RESULTS_DISK_MB', 1024, 1, 1_000_000) * 1024 * 1024,
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return { config, help: r.flags.has('help') };
}

/** REPORTS_RESULTS_DIR: a folder, `off` (undefined), or unset (the user's cache folder). */
function readResultsDir(r: SettingsReader, env: NodeJS.ProcessEnv): string | undefined {
  const dir = r.raw('REPORTS_RESULTS_DIR');
  if (dir === undefined) return defaultResultsDir(env, process.platform, homedir());
  if (dir.toLowerCase() === 'off') return undefined;
  if (!isAbsolute(dir)) {
    r.problems.push(
      `REPORTS_RESULTS_DIR: '${cut(dir, 200)}' is not valid; expected an absolute folder path, or off to keep ` +
        'results in memory only.',
    );
    return undefined;
  }
  return dir;
}

/**
 * The user's cache folder for this program, as each platform names it: ~/Library/Caches on
 * macOS, %LOCALAPPDATA%\...\Cache on Windows, $XDG_CACHE_HOME or ~/.cache elsewhere.
 */
export function defaultResultsDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const name = 'travel-reports-mcp';
  if (platform === 'darwin') return join(home, 'Library', 'Caches', name);
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA?.trim() || join(home, 'AppData', 'Local');
    return join(local, name, 'Cache');
  }
  const xdg = env.XDG_CACHE_HOME?.trim();
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), name);
}

function readBaseUrl(r: SettingsReader): string | undefined {
  const baseUrl = r.raw('REPORTS_BASE_URL');
  if (baseUrl === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search || parsed.hash) {
    r.problems.push(
      `REPORTS_BASE_URL: '${baseUrl}' is not a valid base URL; ` +
        'expected http(s)://host[:port][/path] without query or fragment.',
    );
    return undefined;
  }
  return parsed.href.replace(/\/+$/, '');
}

/** REPORTS_TIMEZONE, checked; undefined when it is not set (the system's zone then). */
function readTimeZone(r: SettingsReader): string | undefined {
  const timeZone = r.raw('REPORTS_TIMEZONE');
  if (timeZone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    r.problems.push(
      `REPORTS_TIMEZONE: '${timeZone}' is not an IANA time zone; expected e.g. Europe/London or America/New_York.`,
    );
  }
  return timeZone;
}

let systemZone: string | undefined;

/**
 * The system's zone, looked up when first needed: the first Intl call of a process loads
 * ICU's data (10-15 ms here), which start-up then does not pay (bench case 3).
 */
function systemTimeZone(): string {
  systemZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return systemZone;
}

function readCompanyCodes(r: SettingsReader): string[] | undefined {
  const codes = r.raw('REPORTS_OWNING_COMPANY_CODES');
  const owningCompanyCodes = codes
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (
    codes !== undefined &&
    (!owningCompanyCodes?.length || owningCompanyCodes.some((c) => !/^[A-Za-z0-9_-]+$/.test(c)))
  ) {
    r.problems.push(
      `REPORTS_OWNING_COMPANY_CODES: '${codes}' is not valid; expected a comma list of company codes such as TRV1,TRV2.`,
    );
  }
  return owningCompanyCodes?.length ? owningCompanyCodes : undefined;
}

function readHttp(r: SettingsReader): Config['http'] {
  const httpRaw = r.raw('REPORTS_HTTP');
  if (httpRaw === undefined) return undefined;
  const m = /^(?:(.+):)?(\d{1,5})$/.exec(httpRaw);
  if (!m || Number(m[2]) > 65535) {
    r.problems.push(`REPORTS_HTTP: '${httpRaw}' is not valid; expected [HOST:]PORT such as 3000 or 127.0.0.1:3000.`);
    return undefined;
  }
  return { host: m[1] ?? '127.0.0.1', port: Number(m[2]) };
}

/** How many of the three live-mode credentials are set; some but not all is a problem unless demo is forced. */
function countCredentials(r: SettingsReader, forced: boolean): number {
  // A base URL that was given but is malformed is reported above, not as missing too.
  const credentials = [
    ['REPORTS_BASE_URL', r.raw('REPORTS_BASE_URL')],
    ['REPORTS_API_USERNAME', r.raw('REPORTS_API_USERNAME')],
    ['REPORTS_API_KEY', r.raw('REPORTS_API_KEY')],
  ] as const;
  const given = credentials.filter(([, v]) => v !== undefined).length;
  if (!forced && given > 0 && given < 3) {
    const missing = credentials.filter(([, v]) => v === undefined).map(([n]) => n);
    r.problems.push(
      `${missing.join(', ')}: missing; live mode needs REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY ` +
        'together (or set REPORTS_DEMO=true).',
    );
  }
  return given;
}

/** The secrets a config holds, for redaction of anything printed. */
export function secretsOf(config: Config): string[] {
  return [config.apiKey, config.httpToken, redisPassword(config.redisUrl)].filter((s): s is string => !!s);
}

/** The password inside a redis://user:password@host URL, which is as secret as the key. */
function redisPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
