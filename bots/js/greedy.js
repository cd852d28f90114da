#!/usr/bin/env node
// A greedy En Dodoi bot in plain Node.js (no npm packages): for each legal
// move it simulates the relay sowing and the capture, and plays the move
// that gains the most seeds at once (ties: the lowest hole).
//
// Run it as ["node", "bots/js/greedy.js"] in a config, and check it with
//   arena check -- node bots/js/greedy.js
//
// The protocol is ../../protocol.md (version 1). Positions are seen as the
// arena sends them: a ring of 2n holes, my holes 1..n (indices 0..n-1) then
// the opponent's (indices n..2n-1), sowing towards higher indices; the hole
// opposite index k is index 2n-1-k.
"use strict";

const readline = require("readline");

const NAME = "greedy-js";

// On Linux, writes to a pipe are synchronous in Node: each reply has left
// the process when write() returns, so nothing waits in a buffer.
function send(line) {
  process.stdout.write(line + "\n");
}

// Relay-sows `ring` in place from index `start`. Returns the index where the
// last seed fell into an empty hole, or -1 if it still runs after `maxLaps`
// laps (never for a move from `legal`, which leaves endless moves out).
function sow(ring, start, maxLaps) {
  const size = ring.length;
  let hole = start;
  for (let lap = 1; lap <= maxLaps; lap++) {
    const seeds = ring[hole];
    ring[hole] = 0;
    const full = Math.floor(seeds / size);
    const rest = seeds % size;
    if (full > 0) {
      for (let k = 0; k < size; k++) ring[k] += full;
    }
    for (let k = 1; k <= rest; k++) ring[(hole + k) % size] += 1;
    const last = (hole + rest) % size; // the emptied hole is not skipped
    if (ring[last] === 1) return last;
    hole = last;
  }
  return -1;
}

// The seeds my move from `hole` (1..n) gains: the capture, plus the whole
// board when it leaves the opponent's row empty (they cannot move, and the
// board goes to the last mover).
function gain(mine, theirs, hole, maxLaps) {
  const n = mine.length;
  const ring = mine.concat(theirs);
  const last = sow(ring, hole - 1, maxLaps);
  if (last < 0) return -1;
  let won = 0;
  const opposite = 2 * n - 1 - last;
  if (last < n && ring[opposite] > 0) {
    won += ring[opposite] + 1;
    ring[opposite] = 0;
    ring[last] = 0;
  }
  if (ring.slice(n).every((s) => s === 0)) {
    won += ring.reduce((a, b) => a + b, 0);
  }
  return won;
}

function numbers(text) {
  return text.split(",").map(Number);
}

let maxLaps = 100000;
const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  const args = {};
  for (const word of words.slice(1)) {
    const i = word.indexOf("=");
    if (i > 0) args[word.slice(0, i)] = word.slice(i + 1);
  }
  switch (words[0]) {
    case "hello":
      send("hello version=1 name=" + NAME);
      break;
    case "newgame":
      maxLaps = Number(args.max_laps || 100000);
      send("ready");
      break;
    case "turn": {
      const mine = numbers(args.mine);
      const theirs = numbers(args.theirs);
      let best = -1;
      let choice = 0;
      for (const hole of numbers(args.legal)) {
        const g = gain(mine, theirs, hole, maxLaps);
        if (g > best) {
          best = g;
          choice = hole;
        }
      }
      // Debug output goes to stderr: the arena logs it, never reads it.
      process.stderr.write(`turn ply=${args.ply}: move ${choice} gains ${best}\n`);
      send("move " + choice);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default: // gameover, blank lines and unknown commands: nothing to say
  }
});
input.on("close", () => process.exit(0));
