// Load driver for the boardgame.io peer: what server/clients/load.py measures for our server, with
// boardgame.io's own client.
//
//   node bench/peer/load.mjs --url http://127.0.0.1:PORT [--concurrency N] [--seconds S]
//                            [--matches M] [--seed K] [--match-moves L]
//
// Each match: created with the lobby API (POST /games/tic-tac-toe/create, then one
// POST .../join per seat for its credentials), then two `Client`s from boardgame.io/client
// (one per player, each with its own socket.io websocket through the `SocketIO` multiplayer
// transport) play it with random legal moves, one move at a time, as fast as the server
// answers. `concurrency` matches run at once; a match that ends is replaced by a new one
// until `matches` have been played or `seconds` have passed: the load pattern of
// server/clients/load.py at full speed. With `--match-moves L` (L > 0) a match is long-lived
// (game.mjs: the board is cleared when it is won or full) and ends after L moves; without,
// it is the tutorial's game of at most 9 moves, and match set-up dominates.
//
// Measured for every move: the time from sending it (client.moves.clickCell) until BOTH
// clients hold the server's new state (a server update whose _stateID is past the state the
// move was made on). The mover's own optimistic local update (boardgame.io runs the move on
// the client first and advances its local _stateID at once) does not count: only states the
// server sent do, as only the server's update counts in server/clients/load.py.
//
// Prints one JSON line: moves, moves_per_s, p50_ms, p99_ms, matches started / finished /
// failed, errors, wall seconds and the driver's own CPU seconds.
import { performance } from 'node:perf_hooks';
import { bgio } from './bgio.mjs';
import { TicTacToe } from './game.mjs';

const { Client, LobbyClient } = bgio('boardgame.io/client');
const { SocketIO } = bgio('boardgame.io/multiplayer');

const MAX_LATENCIES = 200_000; // as server/clients/load.py: the last 200,000 moves
const TIMEOUT_MS = 30_000;

function parseArgs(argv) {
  const opts = { url: '', concurrency: 10, seconds: null, matches: 1e9, seed: 1, 'match-moves': 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    const value = argv[i + 1];
    if (!(key in opts) || value === undefined) throw new Error(`bad argument ${argv[i]}`);
    opts[key] = key === 'url' ? value : Number(value);
  }
  if (!opts.url) throw new Error('--url is required');
  return opts;
}

// mulberry32: a small seeded generator (the moves are random but repeatable per match)
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One player's client, with the times at which the server's states reached it. */
class Seat {
  constructor(url, matchID, playerID, credentials) {
    this.client = Client({
      game: TicTacToe,
      numPlayers: 2,
      matchID,
      playerID,
      credentials,
      debug: false,
      multiplayer: SocketIO({
        server: url,
        // one websocket per client, as a browser would have (socket.io would otherwise share
        // one connection between the clients of this process); no long-polling first
        socketOpts: { transports: ['websocket'], forceNew: true },
      }),
    });
    this.serverStateID = -1; // the newest state the server sent this client
    this.at = 0; // when it arrived (after the client dispatched it to its store)
    this.waiter = null;
    const receive = this.client.receiveTransportData.bind(this.client);
    // the transport calls this.receiveTransportData(data) on every message from the server
    this.client.receiveTransportData = (data) => {
      receive(data);
      let id = null;
      if (data.type === 'sync') id = data.args[1].state._stateID; // [matchID, syncInfo]
      else if (data.type === 'update') id = data.args[1]._stateID; // [matchID, state, deltalog]
      else if (data.type === 'patch') id = data.args[2]; // [matchID, prevStateID, stateID, ...]
      if (id !== null && id !== undefined && id > this.serverStateID) {
        this.serverStateID = id;
        this.at = performance.now();
        if (this.waiter) this.waiter();
      }
    };
  }

  /** Resolves once the server has sent this client a state past `stateID`. */
  past(stateID) {
    if (this.serverStateID > stateID) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error('timeout'));
      }, TIMEOUT_MS);
      this.waiter = () => {
        if (this.serverStateID > stateID) {
          clearTimeout(timer);
          this.waiter = null;
          resolve();
        }
      };
    });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const lobby = new LobbyClient({ server: opts.url });
  const stats = { started: 0, finished: 0, failed: 0, moves: 0, errors: {} };
  const latencies = [];
  let stop = false;
  let next = 0;

  const error = (name) => {
    stats.errors[name] = (stats.errors[name] || 0) + 1;
  };

  async function playMatch(n) {
    const random = rng(opts.seed * 1_000_003 + n);
    let seats = [];
    try {
      const setupData = opts['match-moves'] > 0 ? { moves: opts['match-moves'] } : undefined;
      const { matchID } = await lobby.createMatch('tic-tac-toe', { numPlayers: 2, unlisted: true, setupData });
      const joined = await Promise.all(
        ['0', '1'].map((playerID) => lobby.joinMatch('tic-tac-toe', matchID, { playerID, playerName: `p${playerID}` })),
      );
      seats = joined.map((j) => new Seat(opts.url, matchID, j.playerID, j.playerCredentials));
      stats.started += 1;
      for (const s of seats) s.client.start();
      await Promise.all(seats.map((s) => s.past(-1))); // the initial sync
      for (;;) {
        if (stop) break;
        const state = seats[0].client.getState();
        if (state.ctx.gameover !== undefined) break;
        const actor = seats[Number(state.ctx.currentPlayer)];
        const base = actor.client.getState();
        const empty = [];
        base.G.cells.forEach((c, i) => c === null && empty.push(i));
        const cell = empty[Math.floor(random() * empty.length)];
        const t0 = performance.now();
        actor.client.moves.clickCell(cell);
        await Promise.all(seats.map((s) => s.past(base._stateID)));
        stats.moves += 1;
        latencies.push(Math.max(seats[0].at, seats[1].at) - t0);
        if (latencies.length > MAX_LATENCIES * 2) latencies.splice(0, latencies.length - MAX_LATENCIES);
      }
      stats.finished += 1;
    } catch (exc) {
      stats.failed += 1;
      error(exc?.message === 'timeout' ? 'TimeoutError' : exc?.constructor?.name || 'Error');
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      for (const s of seats) s.client.stop();
    }
  }

  async function worker() {
    while (!stop && next < opts.matches) {
      const n = next;
      next += 1;
      await playMatch(n);
    }
  }

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const workers = [];
  for (let i = 0; i < Math.min(opts.concurrency, opts.matches); i += 1) workers.push(worker());
  let timer = null;
  if (opts.seconds !== null) timer = setTimeout(() => { stop = true; }, opts.seconds * 1000);
  await Promise.all(workers);
  if (timer) clearTimeout(timer);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);

  const kept = latencies.slice(-MAX_LATENCIES).sort((a, b) => a - b);
  // as Stats.percentile in server/clients/load.py
  const pct = (q) => (kept.length ? kept[Math.min(kept.length - 1, Math.floor(q * kept.length))] : null);
  const out = {
    moves: stats.moves,
    moves_per_s: wall ? stats.moves / wall : 0,
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
    matches_started: stats.started,
    matches_finished: stats.finished,
    matches_failed: stats.failed,
    errors: stats.errors,
    wall_s: wall,
    driver_cpu_s: (cpu.user + cpu.system) / 1e6,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

main().catch((exc) => {
  process.stderr.write(`${exc?.stack || exc}\n`);
  process.exit(1);
});
