/**
 * One case in its own process (fresh heap, its own event loop, our server's stderr log kept
 * away from the table): argv[2] names the case, argv[3] is its CaseInput as JSON; the
 * answer goes back over IPC.
 */
import type { CaseInput } from './cases/context.js';
import { budgetRun, peakRun } from './cases/memory.js';
import { pagingCase } from './cases/paging.js';
import { type RunUpstream, scaleRun } from './cases/scale.js';
import { smallCallCase } from './cases/small-call.js';
import { sqlCase } from './cases/sql.js';
import { throughputCase } from './cases/throughput.js';
import { tokensCase } from './cases/tokens.js';

const CASES: Record<string, (input: CaseInput) => Promise<unknown>> = {
  paging: pagingCase,
  'small-call': smallCallCase,
  throughput: throughputCase,
  tokens: tokensCase,
  sql: sqlCase,
  'memory-peak': peakRun,
  'memory-budget': budgetRun,
  'scale-run': (input) => {
    if (!input.scale) throw new Error('scale-run: no size given');
    return scaleRun({ origin: input.origin, sent: sentByParent }, input.scale.total, input.scale.json);
  },
};

type Sent = Awaited<ReturnType<RunUpstream['sent']>>;

/** The upstream's bytes sent, asked of the orchestrator, which controls the upstream process. */
function sentByParent(): Promise<Sent> {
  return new Promise((resolve) => {
    process.once('message', (m: { sent: Sent }) => resolve(m.sent));
    process.send?.({ ask: 'sent' });
  });
}

const [name, json] = process.argv.slice(2);
const run = CASES[name];
if (!run) throw new Error(`unknown case '${name}'; cases: ${Object.keys(CASES).join(', ')}`);
try {
  const output = await run(JSON.parse(json) as CaseInput);
  process.send?.({ output }, () => process.exit(0));
} catch (err) {
  process.send?.({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.exit(1));
}
