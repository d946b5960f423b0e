// The one version: package.json's. tsc copies package.json beside dist/src (dist/package.json)
// and esbuild inlines it into the bundle, so every build reads the same number.
import pkg from '../package.json' with { type: 'json' };

export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
