// boardgame.io's own server (Server from boardgame.io/server: Koa + socket.io, the lobby API
// on the same port, default in-memory storage) serving tic-tac-toe on a free port of
// 127.0.0.1. Prints one line, "boardgame.io listening on http://127.0.0.1:PORT", when ready;
// stops on SIGTERM / SIGINT. Run by bench/peer.py (NODE_ENV=production, as deployed: no
// per-move info logging).
import { bgio } from './bgio.mjs';
import { TicTacToe } from './game.mjs';

const { Server, Origins } = bgio('boardgame.io/server');

const server = Server({ games: [TicTacToe], origins: [Origins.LOCALHOST] });

// Server.run() listens on every interface; keep the benchmark on the loopback. (socket.io's
// Koa binding has replaced app.listen with app.server.listen by now.)
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, cb) => listen(port, '127.0.0.1', cb);

const port = Number(process.env.PORT || 0);
const running = await server.run(port);
const addr = running.appServer.address();
process.stdout.write(`boardgame.io listening on http://127.0.0.1:${addr.port}\n`);

const stop = () => {
  server.kill(running);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
