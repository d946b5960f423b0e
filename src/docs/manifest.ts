/**
 * manifest.json (MCP Bundle, manifest_version 0.3), generated from what the program itself
 * uses: package.json (name, version, description), VARIABLES (the settings a desktop user
 * fills in) and the server's own tools/list and prompts/list. `npm run docs` writes it; a
 * test fails when the committed file is stale or its tools differ from the server's.
 */

import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { loadConfig, VARIABLES } from '../config.js';
import { createServer } from '../server/create-server.js';
import { createRuntime } from '../server/runtime.js';
import { PACKAGE as pkg } from '../version.js';

/** Where the bundled server sits inside the .mcpb (written by `npm run pack`). */
export const BUNDLE_ENTRY = 'server/index.mjs';
export const ICON_FILE = 'icon.png';
/**
 * Node's options for the server as a desktop host runs the bundle (docs/architecture.md,
 * "Memory of held results"): V8's young generation held at 4 MB a semi-space. V8 grows it to
 * 16 MB when what it allocates survives, as parsed records do, and keeps it: 24 MB more RSS
 * in every process that has fetched a large report, and no speed measured for it (100,000
 * records peaked at 1.93-2.16x their JSON, at 1.37-1.55x with it; CPU within the runs'
 * noise). V8 reads it at start only, so it is passed in NODE_OPTIONS, which a runtime that
 * does not take it ignores, rather than in `args`, where it would be the script's.
 */
export const SERVER_NODE_OPTIONS = '--max-semi-space-size=4';

interface DesktopSetting {
  /** The user_config key (snake_case, as bundle hosts show and store it). */
  key: string;
  env: string;
  title: string;
  type: 'string' | 'number' | 'boolean' | 'directory';
  sensitive?: boolean;
  min?: number;
}

/**
 * The variables a desktop user sets, in the order the settings form shows them. Their
 * descriptions and defaults come from VARIABLES. The rest (paging, timeouts, HTTP mode,
 * Redis) keep their defaults on a desktop.
 */
export const DESKTOP_SETTINGS: readonly DesktopSetting[] = [
  { key: 'base_url', env: 'REPORTS_BASE_URL', title: 'Service base URL', type: 'string' },
  { key: 'api_username', env: 'REPORTS_API_USERNAME', title: 'API username', type: 'string' },
  { key: 'api_key', env: 'REPORTS_API_KEY', title: 'API key', type: 'string', sensitive: true },
  { key: 'user_name', env: 'REPORTS_USER_NAME', title: 'Default UserName', type: 'string' },
  {
    key: 'owning_company_codes',
    env: 'REPORTS_OWNING_COMPANY_CODES',
    title: 'Owning company codes (pinned scope)',
    type: 'string',
  },
  { key: 'timezone', env: 'REPORTS_TIMEZONE', title: 'Time zone', type: 'string' },
  { key: 'redact_pii', env: 'REPORTS_REDACT_PII', title: 'Mask traveller names, e-mails and phones', type: 'boolean' },
  { key: 'max_records', env: 'REPORTS_MAX_RECORDS', title: 'Most records per report', type: 'number', min: 1 },
  // Raised with max_records: a year of an agency's segments holds more than the default
  // (results/budget-note.ts says so in the answer, naming this variable).
  {
    key: 'results_max_mb',
    env: 'REPORTS_RESULTS_MAX_MB',
    title: 'Most memory for held results (MB)',
    type: 'number',
    min: 1,
  },
  { key: 'export_dir', env: 'REPORTS_EXPORT_DIR', title: 'Export folder', type: 'directory' },
  // A string, not a directory picker: `off` is one of its values.
  { key: 'results_dir', env: 'REPORTS_RESULTS_DIR', title: 'Held results folder', type: 'string' },
  {
    key: 'results_disk_mb',
    env: 'REPORTS_RESULTS_DISK_MB',
    title: 'Most disk for held results (MB)',
    type: 'number',
    min: 1,
  },
];

/** The README section the manifest's privacy policy points at (its heading's anchor). */
export const PRIVACY_ANCHOR = 'privacy-and-data';

/**
 * Where the privacy policy is read: the README's "Privacy and data" section, on the project's
 * repository page when package.json names one, else on the package's npm page (which shows the
 * README).
 */
export function privacyPolicyUrl(): string {
  const repository = (pkg as { repository?: { url: string } }).repository;
  const web = repository?.url.replace(/^git\+/, '').replace(/\.git$/, '');
  return web?.startsWith('https://')
    ? `${web}#${PRIVACY_ANCHOR}`
    : `https://www.npmjs.com/package/${pkg.name}#${PRIVACY_ANCHOR}`;
}

interface UserConfigEntry {
  type: DesktopSetting['type'];
  title: string;
  description: string;
  required: false;
  sensitive?: true;
  default?: string | number | boolean;
  min?: number;
}

function variable(env: string) {
  const v = VARIABLES.find((x) => x.env === env);
  if (!v) throw new Error(`DESKTOP_SETTINGS names ${env}, which is not in VARIABLES (src/config.ts)`);
  return v;
}

/**
 * A default goes into the manifest only when it is a value the host can pass through as is;
 * defaults that depend on the machine (the system's time zone, the Downloads folder) stay
 * the server's, and the description says what they are.
 */
function typedDefault(setting: DesktopSetting, text: string | undefined): string | number | boolean | undefined {
  if (text === undefined) return undefined;
  if (setting.type === 'boolean') return text === 'true';
  if (setting.type === 'number') return /^\d+$/.test(text) ? Number(text) : undefined;
  return undefined;
}

export function userConfig(): Record<string, UserConfigEntry> {
  const entries = DESKTOP_SETTINGS.map((s): [string, UserConfigEntry] => {
    const v = variable(s.env);
    const fallback = typedDefault(s, v.default);
    const defaultNote = v.default !== undefined && fallback === undefined ? ` Left empty: ${v.default}.` : '';
    const meaning = v.meaning.charAt(0).toUpperCase() + v.meaning.slice(1);
    return [
      s.key,
      {
        type: s.type,
        title: s.title,
        description: `${meaning} (${s.env}).${defaultNote}`,
        required: false,
        ...(s.sensitive ? { sensitive: true as const } : {}),
        ...(fallback !== undefined ? { default: fallback } : {}),
        ...(s.min !== undefined ? { min: s.min } : {}),
      },
    ];
  });
  return Object.fromEntries(entries);
}

export interface ServerListing {
  tools: Tool[];
  prompts: Prompt[];
  /** Each prompt's message text with every argument left as `${arguments.NAME}`. */
  promptTexts: Map<string, string>;
}

/** The server's tools and prompts as a client sees them (demo mode, in-process). */
export async function listServer(): Promise<ServerListing> {
  const rt = await createRuntime(loadConfig({ REPORTS_DEMO: 'true', REPORTS_TIMEZONE: 'UTC' }).config, {
    log: () => {},
  });
  const server = createServer(rt);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'manifest', version: '1.0.0' });
  try {
    await Promise.all([server.connect(b), client.connect(a)]);
    const tools = (await client.listTools()).tools;
    const prompts = (await client.listPrompts()).prompts;
    const promptTexts = new Map<string, string>();
    for (const p of prompts) {
      const placeholders = Object.fromEntries(
        (p.arguments ?? []).map((arg) => [arg.name, `\${arguments.${arg.name}}`]),
      );
      const got = await client.getPrompt({ name: p.name, arguments: placeholders });
      const text = got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
      promptTexts.set(p.name, text);
    }
    return { tools, prompts, promptTexts };
  } finally {
    await client.close();
    await server.close();
    await rt.close();
  }
}

const LONG_DESCRIPTION = [
  "Answers questions from a travel agency's booking reports: bookings (PNRs), air, car, hotel and passive " +
    'segments, tickets and coupons, logs and user activity.',
  '',
  "Each of the reporting service's 22 report transactions is a tool. Every request is signed (HMAC-SHA256); all " +
    'pages are fetched concurrently; the answer is an exact summary of all matching records plus the first ' +
    'rows. The records stay on your machine under a resultId, so the assistant can filter, group, sum and ' +
    'sort every record with query_report without calling the service again.',
  '',
  "Fill in the service's base URL, API username and API key to use live data. Leave them empty to try it in " +
    'demo mode: an embedded simulator serves synthetic agency data, and every answer says so.',
].join('\n');

export function renderManifest(listing: ServerListing): Record<string, unknown> {
  const env = Object.fromEntries(DESKTOP_SETTINGS.map((s) => [s.env, `\${user_config.${s.key}}`]));
  const repository = (pkg as { repository?: { type: string; url: string } }).repository;
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'Travel Reports',
    version: pkg.version,
    description: pkg.description,
    long_description: LONG_DESCRIPTION,
    author: { name: pkg.author },
    ...(repository ? { repository } : {}),
    license: pkg.license,
    privacy_policies: [privacyPolicyUrl()],
    keywords: pkg.keywords,
    icon: ICON_FILE,
    server: {
      type: 'node',
      entry_point: BUNDLE_ENTRY,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${BUNDLE_ENTRY}`],
        env: { ...env, NODE_OPTIONS: SERVER_NODE_OPTIONS },
      },
    },
    tools: listing.tools.map((t) => ({ name: t.name, description: t.description ?? '' })),
    tools_generated: false,
    prompts: listing.prompts.map((p) => ({
      name: p.name,
      description: p.description ?? '',
      arguments: (p.arguments ?? []).map((a) => a.name),
      text: listing.promptTexts.get(p.name) ?? '',
    })),
    prompts_generated: false,
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: pkg.engines.node } },
    user_config: userConfig(),
  };
}

/** manifest.json as written: two-space JSON with a final newline. */
export async function manifestJson(): Promise<string> {
  return `${JSON.stringify(renderManifest(await listServer()), null, 2)}\n`;
}
