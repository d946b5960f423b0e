/** The last step of `npm run build`: the shipped server in dist/server (bundle-server.ts). */
import { bundleServer, SERVER_DIR } from './bundle-server.js';

await bundleServer(SERVER_DIR);
