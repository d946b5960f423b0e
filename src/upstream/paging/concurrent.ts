/**
 * Strategy "concurrent by Offset": TotalRecords is known, so every missing window up to the
 * cap is requested at once; the client's process-wide limiter bounds how many are in flight.
 */
import { NotWanted, type PageAnswer } from '../client.js';
import { gaps, type Interval, mergeIntervals, windows } from './intervals.js';
import type { PageWalk } from './walk.js';

/**
 * Pages read and not yet walked beyond which a worker asks for its next window only once its
 * page is parsed (see fetchConcurrently). Peak RSS of a 100,000-record fetch at 0 ms / its
 * JSON, 6 fresh servers each, alternated with the build that asked once the page was parsed
 * (1.31-1.53): asked early whatever the backlog 1.62-1.70, beyond 4 pages 1.47-1.60, beyond 2
 * 1.33-1.53, beyond 1 1.46-1.53. At 50 ms a request, 20,000 records against the hand-written
 * client (12 rounds alternated with that build, a busy hour): beyond 2 1.02 (1.16 before),
 * beyond 4 1.05 (1.23), beyond 1 1.16 (1.21).
 */
const ASK_EARLY_BACKLOG = 2;

/** A window's page, or the error its request failed with. */
type Answer = { page: PageAnswer } | { error: unknown };

/** `acceptFirst`: the first page's walk, when it is left until the windows after it are asked for. */
export async function fetchConcurrently(
  walk: PageWalk,
  held: readonly Interval[],
  first: Interval,
  total: number,
  acceptFirst?: () => void,
): Promise<number> {
  // The whole window the first page asked for counts as covered: a short first page was noted
  // as missing (not requested again), a long one's extra records were dropped (the next page
  // starts at its Limit, not after the extras).
  const plan = windows(gaps(mergeIntervals([...held, first]), total), walk.req.pageSize, walk.budget);
  for (const interval of plan) walk.budget -= interval.count;
  // Workers take windows in offset order, as many at once as the client sends requests, so a
  // window is only requested while the records have not been seen to end before it.
  const queue = [...plan];
  const take = (): Interval | undefined => {
    for (let interval = queue.shift(); interval; interval = queue.shift()) {
      if (walk.endSeen === undefined || interval.offset < walk.endSeen) return interval;
      walk.skip(interval);
    }
    return undefined;
  };
  // A worker requests its next window as soon as a page's body is read, and walks the page
  // once the answers already waiting have been read: a request never waits behind the walk
  // of a page (the walk is the larger part of a page's CPU; at 50 ms a request, ours took
  // 1.13x the hand-written client's time walking first, 1.08x so), nor behind its parse,
  // which waits for the main thread (asked for once the page was parsed, the next request
  // reached the service 24 ms after the answer left it, at the median, against 10 for the
  // hand-written client, which asks after its own parse). A page that set endSeen may thus
  // be followed by one more request per worker, answered empty and noted as before.
  // When more than ASK_EARLY_BACKLOG pages are read and not yet walked, the main thread is
  // what paging waits for (at 0 ms latency, say): the next window is then asked for once the
  // page is parsed, as before.
  let unwalked = 0;
  const worker = async () => {
    let interval = take();
    let pending = interval && request(walk, interval);
    let walked: Promise<Thrown> = Promise.resolve(undefined);
    while (interval && pending) {
      const current = interval;
      const { answer, read } = pending;
      await read;
      // Read (or ended), this page waits for the main thread until it is walked.
      unwalked++;
      if (unwalked > ASK_EARLY_BACKLOG) await answer;
      interval = take();
      pending = interval && request(walk, interval);
      const got = await answer;
      await rethrow(walked);
      walked = afterWaitingIo(() => {
        try {
          keep(walk, current, got, total);
        } finally {
          unwalked--;
        }
      });
    }
    await rethrow(walked);
  };
  // As many workers as requests may be in flight: each holds at most its page parsed, waiting
  // for its walk, and its next request. Twice as many (9bec86e) kept a request waiting for
  // each slot while a page was decoded as it streamed, on the main thread; with bodies
  // decoded whole on the thread pool (body-decode.ts), a second worker per slot held more
  // parsed pages at once and paged no faster at 50 ms. Peak RSS of a 100,000-record fetch /
  // its JSON, medians of 6-10 fresh servers: 1.51-1.66 with two, 1.35-1.47 with one, 1.51-1.53
  // decoded as it streamed.
  const workers = Array.from({ length: Math.min(plan.length, walk.concurrency) }, worker);
  // After the workers' first requests are sent (they are, once this turn's promises have run).
  if (acceptFirst) workers.push(rethrow(afterWaitingIo(acceptFirst)));
  await Promise.all(workers);
  return total;
}

/** A window's request: its answer, and when its body was read (or the request ended without
 *  one: a failure, or a page source that reads no body). */
interface Pending {
  answer: Promise<Answer>;
  read: Promise<void>;
}

/** The window's answer, which never rejects (it is awaited only once the page before is
 *  walked), and its body's reading. A window that, when its turn to be sent comes, lies at or
 *  past where the records were seen to end is not sent (the request may have waited for a
 *  slot behind the page that showed it). */
function request(walk: PageWalk, interval: Interval): Pending {
  const wanted = () => walk.endSeen === undefined || interval.offset < walk.endSeen;
  let bodyRead = () => {};
  const read = new Promise<void>((resolve) => {
    bodyRead = resolve;
  });
  const answer = walk.get(interval, wanted, bodyRead).then(
    (page): Answer => ({ page }),
    (error: unknown): Answer => ({ error }),
  );
  void answer.then(() => bodyRead());
  return { answer, read };
}

/** A page answered for `interval` accepted, or its failure noted (a cancellation rethrown). */
function keep(walk: PageWalk, interval: Interval, got: Answer, total: number): void {
  if ('error' in got) {
    if (got.error instanceof NotWanted) walk.skip(interval);
    else walk.fail(interval, got.error);
    return;
  }
  const { page } = got;
  try {
    if (page.totalRecords !== null && page.totalRecords !== total && !walk.inconsistent) {
      walk.noteInconsistent(
        `TotalRecords changed from ${total} to ${page.totalRecords} between pages: the data changed while it was read, ` +
          'so records may be missing or repeated; run the report again.',
      );
    }
    walk.accept(interval, page.records, total, true, page.responseRecords);
  } catch (err) {
    walk.fail(interval, err);
  }
}

/** What a step threw, held until its worker looks (a rejection nobody awaits yet would be
 *  reported as unhandled). */
type Thrown = { error: unknown } | undefined;

/** Runs `step` after the I/O the event loop has waiting (setImmediate). */
function afterWaitingIo(step: () => void): Promise<Thrown> {
  return new Promise((resolve) => {
    setImmediate(() => {
      try {
        step();
        resolve(undefined);
      } catch (error) {
        resolve({ error });
      }
    });
  });
}

async function rethrow(step: Promise<Thrown>): Promise<void> {
  const thrown = await step;
  if (thrown) throw thrown.error;
}
