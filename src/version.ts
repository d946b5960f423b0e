// package.json, the one place the name and version live. tsc copies it beside dist/src
// (dist/package.json) and esbuild inlines it into the bundle, so every build reads the same.
import pkg from '../package.json' with { type: 'json' };

export const PACKAGE = pkg;
export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
