import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Config, ConfigError, defaultResultsDir, loadConfig, secretsOf, VARIABLES } from '../../src/config.js';

const LIVE = {
  REPORTS_BASE_URL: 'https://reports.example.com/api',
  REPORTS_API_USERNAME: 'api-user',
  REPORTS_API_KEY: 'k3y-s3cret-value',
};

function problems(env: NodeJS.ProcessEnv, argv: string[] = []): string[] {
  try {
    loadConfig(env, argv);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe((err as ConfigError).problems.join('\n'));
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

const known = VARIABLES.map((v) => `--${v.flag}`).join(', ');

describe('loadConfig', () => {
  test('defaults: demo mode for want of credentials, the documented numbers', () => {
    const { config, help } = loadConfig({}, []);
    expect(help).toBe(false);
    expect(config).toEqual({
      baseUrl: undefined,
      apiUsername: undefined,
      apiKey: undefined,
      userName: undefined,
      owningCompanyCodes: undefined,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      pageSize: 500,
      concurrency: 4,
      maxRecords: 50_000,
      timeoutMs: 30_000,
      callBudgetMs: 40_000,
      redactPii: false,
      demo: true,
      demoReason: 'no-credentials',
      resultsMaxBytes: 256 * 1024 * 1024,
      resultsTtlMs: 60 * 60_000,
      sqlTimeoutMs: 10_000,
      http: undefined,
      httpToken: undefined,
      httpUsersFile: undefined,
      oidcIssuer: undefined,
      oidcAudience: undefined,
      redisUrl: undefined,
      exportDir: join(homedir(), 'Downloads', 'travel-reports'),
      resultsDir: defaultResultsDir({}, process.platform, homedir()),
      resultsDiskBytes: 1024 * 1024 * 1024,
    } satisfies Config);
  });

  test('every variable parsed', () => {
    const { config } = loadConfig({
      REPORTS_BASE_URL: 'HTTPS://Reports.Example.com:443/api/v2/',
      REPORTS_API_USERNAME: ' api-user ',
      REPORTS_API_KEY: 'k3y-s3cret-value',
      REPORTS_USER_NAME: 'agent@example.com',
      REPORTS_OWNING_COMPANY_CODES: 'TRV1, TRV2,,trv_3',
      REPORTS_TIMEZONE: 'Europe/London',
      REPORTS_PAGE_SIZE: '250',
      REPORTS_CONCURRENCY: '8',
      REPORTS_MAX_RECORDS: '1234',
      REPORTS_TIMEOUT_MS: '15000',
      REPORTS_CALL_BUDGET_MS: '20000',
      REPORTS_REDACT_PII: 'yes',
      REPORTS_DEMO: 'off',
      REPORTS_RESULTS_MAX_MB: '64',
      REPORTS_RESULTS_TTL_MINUTES: '5',
      REPORTS_HTTP: '0.0.0.0:8080',
      REPORTS_HTTP_TOKEN: 'tok-abcdef',
      REPORTS_HTTP_USERS: '/etc/travel-reports/users.json',
      REPORTS_OIDC_ISSUER: 'https://login.example.com/tenant',
      REPORTS_OIDC_AUDIENCE: 'api://travel-reports',
      REPORTS_REDIS_URL: 'redis://:pw-redis@127.0.0.1:6379/0',
      REPORTS_EXPORT_DIR: '/data/exports',
      REPORTS_RESULTS_DIR: '/data/results',
      REPORTS_RESULTS_DISK_MB: '10',
    });
    expect(config).toEqual({
      baseUrl: 'https://reports.example.com/api/v2',
      apiUsername: 'api-user',
      apiKey: 'k3y-s3cret-value',
      userName: 'agent@example.com',
      owningCompanyCodes: ['TRV1', 'TRV2', 'trv_3'],
      timeZone: 'Europe/London',
      pageSize: 250,
      concurrency: 8,
      maxRecords: 1234,
      timeoutMs: 15_000,
      callBudgetMs: 20_000,
      redactPii: true,
      demo: false,
      demoReason: undefined,
      resultsMaxBytes: 64 * 1024 * 1024,
      resultsTtlMs: 5 * 60_000,
      sqlTimeoutMs: 10_000,
      http: { host: '0.0.0.0', port: 8080 },
      httpToken: 'tok-abcdef',
      httpUsersFile: '/etc/travel-reports/users.json',
      oidcIssuer: 'https://login.example.com/tenant',
      oidcAudience: 'api://travel-reports',
      redisUrl: 'redis://:pw-redis@127.0.0.1:6379/0',
      exportDir: '/data/exports',
      resultsDir: '/data/results',
      resultsDiskBytes: 10 * 1024 * 1024,
    } satisfies Config);
    expect(secretsOf(config)).toEqual(['k3y-s3cret-value', 'tok-abcdef', 'pw-redis']);
  });

  test("REPORTS_RESULTS_DIR: off keeps results in memory; by default the platform's cache folder", () => {
    expect(loadConfig({ REPORTS_RESULTS_DIR: 'off' }).config.resultsDir).toBeUndefined();
    expect(loadConfig({ REPORTS_RESULTS_DIR: 'OFF' }).config.resultsDir).toBeUndefined();
    expect(() => loadConfig({ REPORTS_RESULTS_DIR: 'relative/dir' })).toThrow(
      "REPORTS_RESULTS_DIR: 'relative/dir' is not valid; expected an absolute folder path, or off",
    );
    expect(() => loadConfig({ REPORTS_RESULTS_DISK_MB: '0' })).toThrow('REPORTS_RESULTS_DISK_MB');
    const home = '/home/ana';
    expect(defaultResultsDir({}, 'linux', home)).toBe('/home/ana/.cache/travel-reports-mcp');
    expect(defaultResultsDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', home)).toBe('/xdg/travel-reports-mcp');
    // XDG: a relative path is to be ignored.
    expect(defaultResultsDir({ XDG_CACHE_HOME: 'rel' }, 'linux', home)).toBe('/home/ana/.cache/travel-reports-mcp');
    expect(defaultResultsDir({}, 'darwin', home)).toBe('/home/ana/Library/Caches/travel-reports-mcp');
    expect(defaultResultsDir({ LOCALAPPDATA: '/c/Users/ana/AppData/Local' }, 'win32', home)).toBe(
      join('/c/Users/ana/AppData/Local', 'travel-reports-mcp', 'Cache'),
    );
  });

  test('booleans accept true/1/yes/on and false/0/no/off, any case; HTTP port alone binds loopback', () => {
    for (const v of ['true', '1', 'YES', 'On'])
      expect(loadConfig({ REPORTS_REDACT_PII: v }).config.redactPii).toBe(true);
    for (const v of ['false', '0', 'No', 'OFF'])
      expect(loadConfig({ REPORTS_REDACT_PII: v }).config.redactPii).toBe(false);
    expect(loadConfig({ REPORTS_HTTP: '3000' }).config.http).toEqual({ host: '127.0.0.1', port: 3000 });
  });

  test('flags win over env, in --flag value and --flag=value forms; bare boolean flags', () => {
    const { config, help } = loadConfig(
      {
        ...LIVE,
        REPORTS_PAGE_SIZE: '250',
        REPORTS_CONCURRENCY: '2',
        REPORTS_TIMEZONE: 'Asia/Tokyo',
        REPORTS_API_KEY: 'env-key-value',
      },
      [
        '--page-size',
        '100',
        '--concurrency=6',
        '--timezone',
        'America/New_York',
        '--api-key=flag-key-value',
        '--redact-pii',
        '--help',
      ],
    );
    expect(config).toMatchObject({
      pageSize: 100,
      concurrency: 6,
      timeZone: 'America/New_York',
      apiKey: 'flag-key-value',
      redactPii: true,
      demo: false,
    });
    expect(help).toBe(true);
    expect(loadConfig(LIVE, ['--demo']).config).toMatchObject({ demo: true, demoReason: 'forced' });
    expect(loadConfig(LIVE, ['--demo', 'false']).config).toMatchObject({ demo: false, demoReason: undefined });
    expect(loadConfig({ ...LIVE, REPORTS_DEMO: 'true' }, ['--demo=false']).config.demo).toBe(false);
  });

  test('${user_config.X} placeholders are unset', () => {
    const { config } = loadConfig({
      REPORTS_BASE_URL: '${user_config.base_url}',
      REPORTS_API_USERNAME: '${user_config.api_username}',
      REPORTS_API_KEY: ' ${user_config.api_key} ',
      REPORTS_PAGE_SIZE: '${user_config.page_size}',
      REPORTS_TIMEZONE: '${user_config.timezone}',
      REPORTS_OWNING_COMPANY_CODES: '${user_config.owning_company_codes}',
      REPORTS_REDACT_PII: '${user_config.redact_pii}',
      REPORTS_HTTP: '${user_config.http}',
      REPORTS_USER_NAME: '',
    });
    expect(config).toMatchObject({
      baseUrl: undefined,
      apiUsername: undefined,
      apiKey: undefined,
      userName: undefined,
      owningCompanyCodes: undefined,
      http: undefined,
      pageSize: 500,
      redactPii: false,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      demo: true,
      demoReason: 'no-credentials',
    });
  });

  test('a malformed base URL: one line naming the variable and the value', () => {
    for (const bad of [
      'reports.example.com/api',
      'ftp://reports.example.com',
      'https://reports.example.com/api?x=1',
      'https://reports.example.com/api#top',
    ]) {
      expect(problems({ ...LIVE, REPORTS_BASE_URL: bad })).toEqual([
        `REPORTS_BASE_URL: '${bad}' is not a valid base URL; expected http(s)://host[:port][/path] without query or fragment.`,
      ]);
    }
    // Given without the credentials: the URL is named as bad, the credentials as missing.
    expect(problems({ REPORTS_BASE_URL: 'not a url' })).toEqual([
      "REPORTS_BASE_URL: 'not a url' is not a valid base URL; expected http(s)://host[:port][/path] without query or fragment.",
      'REPORTS_API_USERNAME, REPORTS_API_KEY: missing; live mode needs REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY together (or set REPORTS_DEMO=true).',
    ]);
  });

  test('a non-numeric page size, a concurrency below 1, a bad time zone: one exact line each', () => {
    expect(problems({ REPORTS_PAGE_SIZE: 'lots' })).toEqual([
      "REPORTS_PAGE_SIZE: 'lots' is not valid; expected a whole number from 1 to 100000.",
    ]);
    expect(problems({ REPORTS_PAGE_SIZE: '12.5' })).toEqual([
      "REPORTS_PAGE_SIZE: '12.5' is not valid; expected a whole number from 1 to 100000.",
    ]);
    expect(problems({ REPORTS_CONCURRENCY: '0' })).toEqual([
      "REPORTS_CONCURRENCY: '0' is not valid; expected a whole number from 1 to 64.",
    ]);
    expect(problems({ REPORTS_CONCURRENCY: '-2' })).toEqual([
      "REPORTS_CONCURRENCY: '-2' is not valid; expected a whole number from 1 to 64.",
    ]);
    expect(problems({ REPORTS_TIMEZONE: 'Mars/Olympus_Mons' })).toEqual([
      "REPORTS_TIMEZONE: 'Mars/Olympus_Mons' is not an IANA time zone; expected e.g. Europe/London or America/New_York.",
    ]);
    expect(problems({}, ['--timeout-ms', '99'])).toEqual([
      "REPORTS_TIMEOUT_MS: '99' is not valid; expected a whole number from 100.",
    ]);
    expect(problems({ REPORTS_REDACT_PII: 'maybe' })).toEqual([
      "REPORTS_REDACT_PII: 'maybe' is not valid; expected true or false.",
    ]);
    expect(problems({ REPORTS_OWNING_COMPANY_CODES: 'TRV 1,TRV2' })).toEqual([
      "REPORTS_OWNING_COMPANY_CODES: 'TRV 1,TRV2' is not valid; expected a comma list of company codes such as TRV1,TRV2.",
    ]);
    expect(problems({ REPORTS_HTTP: '70000' })).toEqual([
      "REPORTS_HTTP: '70000' is not valid; expected [HOST:]PORT such as 3000 or 127.0.0.1:3000.",
    ]);
  });

  test('several bad values: one line each, all reported at once', () => {
    expect(
      problems({
        ...LIVE,
        REPORTS_BASE_URL: 'not a url',
        REPORTS_TIMEZONE: 'Nowhere/Land',
        REPORTS_PAGE_SIZE: 'abc',
        REPORTS_CONCURRENCY: '0',
        REPORTS_MAX_RECORDS: '10000001',
        REPORTS_CALL_BUDGET_MS: '1e4',
      }),
    ).toEqual([
      "REPORTS_BASE_URL: 'not a url' is not a valid base URL; expected http(s)://host[:port][/path] without query or fragment.",
      "REPORTS_TIMEZONE: 'Nowhere/Land' is not an IANA time zone; expected e.g. Europe/London or America/New_York.",
      "REPORTS_PAGE_SIZE: 'abc' is not valid; expected a whole number from 1 to 100000.",
      "REPORTS_CONCURRENCY: '0' is not valid; expected a whole number from 1 to 64.",
      "REPORTS_MAX_RECORDS: '10000001' is not valid; expected a whole number from 1 to 10000000.",
      "REPORTS_CALL_BUDGET_MS: '1e4' is not valid; expected a whole number from 100.",
    ]);
  });

  test('partial credentials: the missing ones are named', () => {
    const tail =
      ': missing; live mode needs REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY together (or set REPORTS_DEMO=true).';
    expect(problems({ REPORTS_API_USERNAME: 'api-user' })).toEqual([`REPORTS_BASE_URL, REPORTS_API_KEY${tail}`]);
    expect(problems({ REPORTS_BASE_URL: LIVE.REPORTS_BASE_URL, REPORTS_API_USERNAME: 'u' })).toEqual([
      `REPORTS_API_KEY${tail}`,
    ]);
    expect(
      problems({ REPORTS_API_KEY: 'k3y-s3cret-value', REPORTS_API_USERNAME: '${user_config.api_username}' }),
    ).toEqual([`REPORTS_BASE_URL, REPORTS_API_USERNAME${tail}`]);
    // A forced demo needs no credentials, partial ones included.
    expect(loadConfig({ REPORTS_API_USERNAME: 'api-user', REPORTS_DEMO: 'true' }).config).toMatchObject({
      demo: true,
      demoReason: 'forced',
    });
  });

  test('no credentials -> demo, with the reason; all three -> live', () => {
    expect(loadConfig({}).config).toMatchObject({ demo: true, demoReason: 'no-credentials' });
    expect(loadConfig(LIVE).config).toMatchObject({
      demo: false,
      demoReason: undefined,
      baseUrl: 'https://reports.example.com/api',
    });
  });

  test('unknown flags, stray arguments and a flag without its value are refused', () => {
    expect(problems({}, ['--page-sise', '100'])).toEqual([
      `Flag --page-sise is not known (its value is not shown); known flags: ${known}.`,
    ]);
    expect(problems({}, ['--page-size', '10', 'stray'])).toEqual([
      'Argument 3 (5 characters, not shown) is not understood; flags look like --page-size 500 (see --help).',
    ]);
    expect(problems({}, ['--bogus=1'])).toEqual([
      `Flag --bogus is not known (its value is not shown); known flags: ${known}.`,
    ]);
    expect(problems({}, ['--bogus', '--demo'])).toEqual([`Flag --bogus is not known; known flags: ${known}.`]);
    expect(problems({}, ['--page-size'])).toEqual(['Flag --page-size needs a value.']);
  });

  test('a mistyped key flag never echoes the key: --apikey KEY, --apikey=KEY, a bare KEY', () => {
    const key = 'Zq9-live-signing-key-77';
    for (const argv of [['--apikey', key], [`--apikey=${key}`], [key], ['--API-KEY', key, '--demo']]) {
      const lines = problems({}, argv);
      expect(lines.length, argv.join(' ')).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toContain(key);
    }
    expect(problems({}, ['--apikey', key])).toEqual([
      `Flag --apikey is not known (its value is not shown); known flags: ${known}.`,
    ]);
  });

  test('no problem line echoes a secret', () => {
    const key = 'k3y-s3cret-value';
    const lines = problems(
      { ...LIVE, REPORTS_API_KEY: key, REPORTS_HTTP_TOKEN: 'tok-abcdef', REPORTS_PAGE_SIZE: 'x', REPORTS_HTTP: 'bad' },
      ['--nope', `--api-key=${key}`],
    );
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain('tok-abcdef');
    }
  });
});
