/**
 * Everything that turns a held result into what a client receives: the result shapes, the
 * text and its budget, the structured rows and their budget, notes and next steps. Server
 * handlers call only what this file exports.
 */
export { presentQuery } from './query-answer.js';
export { type PresentOptions, presentContinued, presentReport } from './report-answer.js';
export { resultUri } from './result-uri.js';
export { queryResultSchema, reportResultSchema } from './shapes.js';
