// The classic tic-tac-toe of boardgame.io's tutorial, shared by the server and the clients
// (a boardgame.io client runs the moves optimistically, so it needs the game too).
//
// A match created with setupData {moves: N} (N > 0) is long-lived: a board that is won or
// full is cleared and play goes on in the same match, which ends after N moves. bench/peer.py
// sets N to the mean length of this server's duels in the same run, so that both sides pay
// for setting up a match (lobby, connections) once per the same number of moves. Without
// setupData it is the tutorial's game (one board, at most 9 moves).
import { bgio } from './bgio.mjs';

const { INVALID_MOVE } = bgio('boardgame.io/core');

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8], // rows
  [0, 3, 6], [1, 4, 7], [2, 5, 8], // columns
  [0, 4, 8], [2, 4, 6], // diagonals
];

function isVictory(cells) {
  return LINES.some(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
}

function isDraw(cells) {
  return cells.every((c) => c !== null);
}

export const TicTacToe = {
  name: 'tic-tac-toe',
  setup: (_, setupData) => ({ cells: Array(9).fill(null), moves: 0, boards: 1, limit: setupData?.moves || 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
      G.moves += 1;
      if (G.limit > 0 && (isVictory(G.cells) || isDraw(G.cells))) {
        G.cells = Array(9).fill(null); // the next board, in the same match
        G.boards += 1;
      }
    },
  },
  endIf: ({ G, ctx }) => {
    if (G.limit > 0) return G.moves >= G.limit ? { draw: true } : undefined;
    if (isVictory(G.cells)) return { winner: ctx.currentPlayer };
    if (isDraw(G.cells)) return { draw: true };
  },
};
