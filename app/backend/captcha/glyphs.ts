/**
 * The outlines the captcha's picture is drawn from (picture.ts), kept as data: one line a character,
 * its strokes split by " | ", each stroke a polyline of "x,y" points on a 10 × 14 grid, y downward.
 * Read once, when the module loads.
 */
const STROKES: Record<string, string> = {
  "3": "0,1 3,0 8,0 10,2 10,5 7,7 3,7 | 7,7 10,9 10,12 8,14 3,14 0,13",
  "4": "7,14 7,0 0,10 10,10",
  "6": "9,1 6,0 3,0 0,3 0,11 3,14 7,14 10,11 10,9 7,7 3,7 0,9",
  "7": "0,0 10,0 4,14",
  "9": "10,7 3,7 0,5 0,2 3,0 7,0 10,2 10,10 7,14 2,14",
  A: "0,14 5,0 10,14 | 2,9 8,9",
  C: "10,2 7,0 3,0 0,3 0,11 3,14 7,14 10,12",
  E: "10,0 0,0 0,14 10,14 | 0,7 7,7",
  F: "10,0 0,0 0,14 | 0,7 7,7",
  H: "0,0 0,14 | 10,0 10,14 | 0,7 10,7",
  K: "0,0 0,14 | 10,0 0,8 | 3,6 10,14",
  L: "0,0 0,14 10,14",
  M: "0,14 0,0 5,8 10,0 10,14",
  N: "0,14 0,0 10,14 10,0",
  P: "0,14 0,0 7,0 10,2 10,5 7,7 0,7",
  R: "0,14 0,0 7,0 10,2 10,5 7,7 0,7 | 5,7 10,14",
  T: "0,0 10,0 | 5,0 5,14",
  U: "0,0 0,11 3,14 7,14 10,11 10,0",
  V: "0,0 5,14 10,0",
  W: "0,0 2,14 5,6 8,14 10,0",
  X: "0,0 10,14 | 10,0 0,14",
  Y: "0,0 5,7 10,0 | 5,7 5,14",
};

/** Strokes of each character: polylines of [x, y] on a 10 × 14 grid, y downward. */
export const GLYPHS: Record<string, number[][][]> = Object.fromEntries(
  Object.entries(STROKES).map(([char, strokes]) => [
    char,
    strokes.split(" | ").map((stroke) => stroke.split(" ").map((point) => point.split(",").map(Number))),
  ]),
);
