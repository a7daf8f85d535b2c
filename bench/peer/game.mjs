// The classic tic-tac-toe of boardgame.io's tutorial, shared by the server and the clients
// (a boardgame.io client runs the moves optimistically, so it needs the game too).
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
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    if (isVictory(G.cells)) return { winner: ctx.currentPlayer };
    if (isDraw(G.cells)) return { draw: true };
  },
};
