/**
 * The pages of a report as the service sent them, kept (results/disk/page-copy.ts), answered
 * again in place of the service: a fetch over them walks, derives and holds exactly what the
 * fetch that kept them did (docs/held-results.md, "On disk"). A page asked for that was not
 * kept (it had failed, or lay past the cap) fails as a page the service did not answer.
 */
import { ReportsError } from '../errors.js';
import { decodeWire, type WireBody } from './body-decode.js';
import { utf8 } from './body-text.js';
import { NotWanted, type PageAnswer, type PageRequest, type PageSource } from './client.js';
import { parseEnvelope } from './envelope.js';
import { parseInPieces } from './json-pieces.js';

export class KeptPages implements PageSource {
  /** One at a time: the pages are here already. */
  readonly limiter = { limit: 1 };

  /** `pages`: each kept page's body, by the Offset it was asked for (0 without paging). */
  constructor(private readonly pages: ReadonlyMap<number, WireBody>) {}

  async getPage(req: PageRequest): Promise<PageAnswer> {
    const offset = req.offset ?? 0;
    // As the service's client leaves a request unsent that is no longer wanted.
    if (req.wanted?.() === false) throw new NotWanted(req.path, req.offset);
    const wire = this.pages.get(offset);
    if (!wire) {
      throw new ReportsError('upstream', `The page at Offset ${offset} of ${req.path} was not kept.`, {
        path: req.path,
      });
    }
    // As UpstreamClient parses a successful body that held nothing to redact (the only kind kept).
    const bytes = decodeWire(wire);
    const json = parseInPieces(bytes) ?? JSON.parse(utf8(bytes));
    return { ...parseEnvelope(json, req.envelope, req.path), attempts: 1 };
  }
}
