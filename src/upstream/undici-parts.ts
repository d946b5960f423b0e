/**
 * The parts of undici the client uses, imported statically here so that this module can be
 * loaded lazily (client.ts): undici is CommonJS, and a bundler's chunk for a dynamic import
 * of it offers only a default export, where a static import gets the named ones.
 */
export { Agent, request } from 'undici';
