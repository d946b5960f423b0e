import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { travellersAtShape } from '../catalog/travellers-schema.js';
import { quote } from '../errors.js';
import { reportResultSchema } from '../presentation/shapes.js';
import { RESULT_VIEW_TOOL_META } from '../view/resource.js';
import { guard } from './boundary.js';
import { lazy } from './lazy.js';
import type { ToolContext } from './progress.js';
import { READ_ONLY_ANNOTATIONS } from './report-tools.js';
import type { Runtime } from './runtime.js';

const travellersCall = lazy(() => import('./travellers-call.js'));
const TITLE = 'Travellers at a place';

// Built once per process: every session's server registers this same schema (plain-schemas.ts).
const accepted = Object.keys(travellersAtShape);
const travellersInput = z.strictObject(travellersAtShape, {
  error: (iss) =>
    iss.code === 'unrecognized_keys'
      ? `unknown parameter ${iss.keys.map((k) => quote(k)).join(', ')}; accepted: ${accepted.join(', ')}`
      : 'arguments: not an object; use {"place": "SIN", "from": "today", "to": "today+6"}',
});

/**
 * travellers_at, for duty of care (README, "Duty of care"). Its call lives in
 * travellers-call.ts, loaded with the first call (see report-tools.ts).
 */
export function registerTravellersTool(server: McpServer, rt: Runtime): void {
  server.registerTool(
    'travellers_at',
    {
      title: TITLE,
      description:
        'Who is at a place (airport, city or country) between two dates, for duty of care: per traveller and stay, ' +
        'arriving, in place, leaving, passing through or undecided (why), when, bookings, account, own and ' +
        "booking contacts, and the flights and hotel stays it rests on. Reads routings, hotel stays and bookings' " +
        'details; held under a resultId for query_report.',
      inputSchema: travellersInput,
      outputSchema: reportResultSchema,
      annotations: { title: TITLE, ...READ_ONLY_ANNOTATIONS },
      _meta: RESULT_VIEW_TOOL_META,
    },
    guard(
      'travellers_at',
      rt.secrets,
      rt.log,
      async (args, ctx: ToolContext) => (await travellersCall()).callTravellersAt(rt, args, ctx),
      rt.redact.text,
    ),
  );
}
