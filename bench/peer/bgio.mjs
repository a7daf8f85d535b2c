// Loads boardgame.io from the directory bench/peer.py installed it into (var/bench-peer by
// default, BENCH_PEER_MODULES when set): the package lives outside the repository's tracked
// files, so a plain `import 'boardgame.io/server'` would not find it. The package's
// subpath entry points (boardgame.io/server, /client, ...) are CommonJS proxy directories,
// which is what createRequire resolves.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.BENCH_PEER_MODULES || path.resolve(here, '../../var/bench-peer');

export const bgio = createRequire(path.join(dir, 'package.json'));
