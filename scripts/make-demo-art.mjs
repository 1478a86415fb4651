#!/usr/bin/env node
/**
 * Draws the demo hotels' artwork: every /demo/<hotel>/<file>.svg that a file in demo/hotels/
 * names is written to public/demo/<hotel>/<file>.svg.
 *
 *   node scripts/make-demo-art.mjs
 *
 * No dependencies; the output is deterministic (a seeded random generator per file).
 * The scene is chosen by the first word of the file name (room-…, skyline-…, lake-…, tent-…),
 * the size by the width/height next to the src in the hotel file, the colours by the hotel's
 * theme below plus a per-file variation. Room photos end in -1 (bed), -2 (bathroom) or
 * -3 (a corner by the window); the words in between pick the beds (twin, family, suite, bunk, tatami…).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const HOTELS_DIR = join(ROOT, "demo", "hotels");
const OUT_DIR = join(ROOT, "public");
const MAX_BYTES = 3000;

/** Per hotel: base hue, the view from the room windows, the logo emblem and words. */
const THEMES = {
  taipei: { hue: 30, view: "city", emblem: "arch", words: ["PORTICO", "TAIPEI"] },
  lakeside: { hue: 195, view: "lake", emblem: "peak", words: ["PORTICO", "LAKESIDE"] },
  camp: { hue: 125, view: "forest", emblem: "tent", words: ["SPRUCE RIDGE", "CAMP"] },
  soon: { hue: 12, view: "street", emblem: "door", words: ["LUKANG LANE", "GUESTHOUSE"] },
  closed: { hue: 205, view: "sea", emblem: "wave", words: ["SEA BREEZE", "B&B · HUALIEN"] },
  nosite: { hue: 225, view: "city", emblem: "anchor", words: ["HARBOUR", "BACKPACKERS"] },
  external: { hue: 5, view: "mountain", emblem: "lantern", words: ["JIUFEN", "HILLSIDE INN"] },
  maintain: { hue: 345, view: "garden", emblem: "steam", words: ["YUNOHANA", "BEITOU RYOKAN"] },
};

// ------------------------------------------------------------------ small helpers
const r = (n) => Math.round(n);
function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
function rng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** hsl → #rrggbb */
function hsl(h, s, l) {
  h = ((h % 360) + 360) % 360;
  s /= 100;
  l /= 100;
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return (
    "#" +
    [f(0), f(8), f(4)]
      .map((x) =>
        r(x * 255)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")
  );
}

/** Drawing context: size, random numbers, palette, gradient definitions. */
function context(w, h, seed, theme) {
  const rnd = rng(seed);
  const c = { w, h, rnd, theme, store: { defs: [], n: 0, ids: new Map() } };
  c.hue = theme.hue + r((rnd() - 0.5) * 24);
  c.green = 100 + r(rnd() * 45);
  c.j = r((rnd() - 0.5) * 24);
  c.pick = (list) => list[Math.floor(rnd() * list.length)];
  c.between = (a, b) => a + rnd() * (b - a);
  return c;
}
/** A gradient definition, shared by every shape of the file that uses the same colours. */
function define(c, key, make) {
  const { ids } = c.store;
  if (!ids.has(key)) {
    const id = newId(c);
    c.store.defs.push(make(id));
    ids.set(key, id);
  }
  return `url(#${ids.get(key)})`;
}
const newId = (c) => `g${c.store.n++}`;
function grad(c, stops, horizontal = false) {
  return define(c, `l${horizontal}${stops}`, (id) => {
    const s = stops
      .map((col, i) => `<stop offset="${String(+(i / (stops.length - 1)).toFixed(2)).replace(/^0\./, ".")}" stop-color="${col}"/>`)
      .join("");
    return `<linearGradient id="${id}"${horizontal ? "" : ' x2="0" y2="1"'}>${s}</linearGradient>`;
  });
}
function glow(c, color) {
  return define(
    c,
    `r${color}`,
    (id) =>
      `<radialGradient id="${id}"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
  );
}
const at = (name, v) => (r(v) === 0 ? "" : ` ${name}="${r(v)}"`);
const R = (x, y, w, h, fill, more = "") => `<rect${at("x", x)}${at("y", y)} width="${r(w)}" height="${r(h)}" fill="${fill}"${more}/>`;
const C = (x, y, rad, fill, more = "") => `<circle cx="${r(x)}" cy="${r(y)}" r="${r(rad)}" fill="${fill}"${more}/>`;
const E = (x, y, rx, ry, fill, more = "") => `<ellipse cx="${r(x)}" cy="${r(y)}" rx="${r(rx)}" ry="${r(ry)}" fill="${fill}"${more}/>`;
const P = (d, fill, more = "") => `<path d="${d}" fill="${fill}"${more}/>`;
const pts = (list) => list.map(([x, y], i) => `${i ? "L" : "M"}${r(x)} ${r(y)}`).join("") + "Z";
const op = (o) => ` opacity="${String(o).replace(/^0\./, ".")}"`;
/** Many circles as one path. */
const dots = (list, fill, more = "") =>
  P(
    list
      .map(([x, y, rad]) => `M${r(x - rad)} ${r(y)}a${r(rad)} ${r(rad)} 0 1 0 ${r(2 * rad)} 0a${r(rad)} ${r(rad)} 0 1 0 -${r(2 * rad)} 0`)
      .join(""),
    fill,
    more,
  );
/** Many round dots of one size as one path (zero-length strokes with round caps). */
const spots = (list, rad, color, more = "") =>
  `<path d="${list.map(([x, y]) => `M${r(x)} ${r(y)}h0`).join("")}" stroke="${color}" stroke-width="${r(rad * 2)}" stroke-linecap="round"${more}/>`;
/** A soft blur for glows drawn with dots(). */
function blur(c, amount) {
  return (
    define(
      c,
      `b${amount}`,
      (id) => `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${amount}"/></filter>`,
    ).replace("url", ' filter="url') + '"'
  );
}

// ------------------------------------------------------------------ outdoor pieces
const SKIES = {
  day: (hu) => [hsl(hu + 180, 60, 62), hsl(hu + 190, 55, 86)],
  dawn: (hu) => [hsl(hu + 200, 45, 70), hsl(hu + 20, 70, 88)],
  dusk: (hu) => [hsl(hu + 220, 45, 28), hsl(hu + 320, 45, 58), hsl(hu + 30, 85, 74)],
  night: (hu) => [hsl(hu + 215, 55, 9), hsl(hu + 225, 40, 26)],
};
function sky(c, tod, horizon = 1) {
  const { w, h } = c;
  let s = R(0, 0, w, h * horizon, grad(c, SKIES[tod](c.hue)));
  const sx = c.between(0.2, 0.8) * w;
  if (tod === "night") {
    s += C(sx, h * 0.2, h * 0.05, "#f4efd8");
    const stars = [];
    for (let i = 0; i < (c.lite ? 10 : 30); i++) stars.push([c.rnd() * w, c.rnd() * h * horizon * 0.7]);
    s += spots(stars, 1.2, "#fff", op(0.8));
  } else {
    const y = tod === "day" ? h * 0.18 : h * horizon * 0.72;
    s += C(sx, y, h * 0.22, glow(c, tod === "day" ? "#fffbe6" : "#ffd9a0"), op(0.8));
    s += C(sx, y, h * 0.055, tod === "day" ? "#fffdf2" : "#ffe2b0");
  }
  return s;
}
function ridge(c, y0, amp, fill, steps = 7) {
  const { w, h } = c;
  const p = [[0, h]];
  for (let i = 0; i <= steps; i++) p.push([(w * i) / steps, y0 - c.rnd() * amp]);
  p.push([w, h]);
  return P(pts(p), fill);
}
function city(c, base, top, fill, lit, count = 14) {
  const { w } = c;
  if (c.lite) count = Math.ceil(count * 0.6);
  let d = "";
  let x = -10;
  let tallest = null;
  while (x < w) {
    const bw = c.between(w / (count * 1.6), w / count);
    const bh = c.between(0.25, 1) * (base - top);
    d += `M${r(x)} ${r(base)}v-${r(bh)}h${r(bw)}v${r(bh)}z`;
    if (!tallest || bh > tallest.bh) tallest = { x, bw, bh };
    x += bw + c.between(0, w / 80);
  }
  if (!lit) return P(d, fill);
  const windows = define(
    c,
    `w${lit}`,
    (id) =>
      `<pattern id="${id}" width="14" height="18" patternUnits="userSpaceOnUse"><rect x="3" y="4" width="4" height="6" fill="${lit}"/></pattern>`,
  );
  const shape = newId(c);
  c.store.defs.push(`<path id="${shape}" d="${d}"/>`);
  return `<use href="#${shape}" fill="${fill}"/><use href="#${shape}" fill="${windows}"${op(0.75)}/>`;
}
function tower(c, x, base, height, fill) {
  const tiers = 6;
  const tw = height * 0.12;
  let d = "";
  for (let i = 0; i < tiers; i++) {
    const y = base - (height * 0.85 * (i + 1)) / tiers;
    const hgt = (height * 0.85) / tiers;
    d += `M${r(x - tw / 2)} ${r(y + hgt)}l-${r(tw * 0.12)} -${r(hgt)}h${r(tw * 1.24)}l-${r(tw * 0.12)} ${r(hgt)}z`;
  }
  d += `M${r(x - 2)} ${r(base - height * 0.85)}H${r(x + 2)}V${r(base - height)}H${r(x - 2)}Z`;
  return P(d, fill);
}
function water(c, y, tod) {
  const { w, h } = c;
  const [a, b] =
    tod === "night"
      ? [hsl(c.hue + 220, 45, 18), hsl(c.hue + 220, 50, 8)]
      : tod === "dusk"
        ? [hsl(c.hue + 320, 30, 50), hsl(c.hue + 220, 40, 25)]
        : [hsl(c.hue + 185, 45, 60), hsl(c.hue + 200, 55, 32)];
  let s = R(0, y, w, h - y, grad(c, [a, b]));
  let d = "";
  for (let i = 0; i < (c.lite ? 4 : 9); i++)
    d += `M${r(c.rnd() * w)} ${r(y + c.between(0.05, 0.95) * (h - y))}h${r(c.between(0.04, 0.14) * w)}`;
  return s + `<path d="${d}" stroke="#fff" stroke-width="2"${op(0.35)}/>`;
}
function conifers(c, base, n, fill, size) {
  const { w } = c;
  if (c.lite) n = Math.ceil(n / 2);
  let d = "";
  for (let i = 0; i < n; i++) {
    const x = c.rnd() * w;
    const s = size * c.between(0.6, 1.2);
    d += `M${r(x)} ${r(base - s)}L${r(x + s * 0.3)} ${r(base)}H${r(x - s * 0.3)}Z`;
  }
  return P(d, fill);
}
function mist(c, y, hgt) {
  return R(0, y, c.w, hgt, "#fff", op(0.18));
}

// ------------------------------------------------------------------ outdoor scenes
function todFor(c, name, options) {
  if (/summer|day|cycling|museum|pool|about|showers|train/.test(name)) return "day";
  if (/night|bar|firefly|newyear|market|harbour|lantern|pitch-2|glamping/.test(name)) return "night";
  if (/dusk|sunset|hero-1|longstay|river/.test(name)) return "dusk";
  return c.pick(options);
}
const scenes = {};
scenes.skyline = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dusk", "day", "night"]);
  const lit = tod === "day" ? null : "#ffd98a";
  let s = sky(c, tod);
  if (!c.lite) s += city(c, h * 0.82, h * 0.35, hsl(c.hue + 220, 20, tod === "day" ? 70 : 35), null, 10);
  s += tower(c, w * c.between(0.55, 0.8), h * 0.82, h * 0.7, hsl(c.hue + 215, 25, tod === "day" ? 55 : 25));
  s += city(c, h * 0.9, h * 0.5, hsl(c.hue + 225, 30, tod === "day" ? 45 : 15), lit, 12);
  s += R(0, h * 0.9, w, h * 0.1, hsl(c.hue + 225, 30, tod === "day" ? 30 : 10));
  return s;
};
scenes.harbour = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["night", "dusk"]);
  let s = sky(c, tod, 0.7);
  s += city(c, h * 0.7, h * 0.4, hsl(c.hue + 220, 30, tod === "day" ? 50 : 16), tod === "day" ? null : "#ffd98a", 12);
  s += water(c, h * 0.7, tod);
  let d = "";
  for (let i = 0; i < 3; i++) {
    const x = w * (0.1 + i * 0.12);
    d += `M${r(x)} ${r(h * 0.7)}V${r(h * 0.3)}h4V${r(h * 0.7)}zM${r(x - w * 0.05)} ${r(h * 0.32)}h${r(w * 0.1)}v4h-${r(w * 0.1)}z`;
  }
  s += P(d, hsl(c.hue + 10, 60, 40));
  s += P(
    pts([
      [w * 0.55, h * 0.8],
      [w * 0.9, h * 0.8],
      [w * 0.86, h * 0.86],
      [w * 0.58, h * 0.86],
    ]),
    "#ececec",
  );
  return s;
};
scenes.river = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dusk"]);
  let s = sky(c, tod, 0.66);
  s += city(c, h * 0.66, h * 0.5, hsl(c.hue + 230, 25, 30), null, 18);
  s += water(c, h * 0.66, tod);
  let d = "";
  for (let i = 0; i < 4; i++) d += `M${r(w * (0.05 + i * 0.12))} ${r(h * 0.62)}q${r(w * 0.06)} -${r(h * 0.08)} ${r(w * 0.12)} 0`;
  s += `<path d="${d}" fill="none" stroke="${hsl(c.hue + 230, 20, 20)}" stroke-width="5"/>`;
  s += P(
    pts([
      [0, h],
      [0, h * 0.86],
      [w * 0.45, h * 0.9],
      [w * 0.4, h],
    ]),
    hsl(c.green, 25, 22),
  );
  return s;
};
scenes.lake = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dawn", "day", "dusk"]);
  const hz = h * c.between(0.56, 0.64);
  let s = sky(c, tod, hz / h);
  s += ridge(c, hz - h * 0.12, h * 0.18, hsl(c.hue + 20, 20, tod === "dusk" ? 45 : 68));
  s += ridge(c, hz - h * 0.02, h * 0.14, hsl(c.green, 25, tod === "dusk" ? 30 : 48));
  s += mist(c, hz - h * 0.05, h * 0.06);
  s += water(c, hz, tod);
  s += conifers(c, h * 1.02, 9, hsl(c.green, 30, 18), h * 0.28);
  if (/villa|boat|hero-2/.test(name))
    s += P(
      pts([
        [w * 0.6, hz + h * 0.12],
        [w * 0.72, hz + h * 0.12],
        [w * 0.7, hz + h * 0.15],
        [w * 0.62, hz + h * 0.15],
      ]),
      "#3b2a20",
    );
  return s;
};
scenes.sea = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dawn", "day"]);
  const hz = h * 0.52;
  let s = sky(c, tod, hz / h) + water(c, hz, tod);
  s += P(
    pts([
      [0, h],
      [0, h * 0.4],
      [w * 0.12, h * 0.46],
      [w * 0.22, h * 0.6],
      [w * 0.3, h],
    ]),
    hsl(c.hue + 120, 25, 26),
  );
  s += P(
    pts([
      [0, h],
      [0, h * 0.86],
      [w * 0.5, h * 0.8],
      [w, h * 0.9],
      [w, h],
    ]),
    hsl(40, 45, 78),
  );
  s += `<path d="M${r(w * 0.2)} ${r(h * 0.84)}q${r(w * 0.15)} -${r(h * 0.04)} ${r(w * 0.3)} 0t${r(w * 0.3)} 0" fill="none" stroke="#fff" stroke-width="4" opacity=".7"/>`;
  return s;
};
scenes.boat = (c, name) =>
  scenes.lake(c, name + "-boat") +
  P(
    pts([
      [c.w * 0.1, c.h * 0.82],
      [c.w * 0.4, c.h * 0.82],
      [c.w * 0.38, c.h * 0.85],
      [c.w * 0.12, c.h * 0.85],
    ]),
    "#6b4a34",
  );
scenes.forest = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dawn", "day"]);
  let s = sky(c, tod);
  s += conifers(c, h * 0.7, 16, hsl(c.hue, 20, tod === "night" ? 16 : 55), h * 0.35);
  s += mist(c, h * 0.55, h * 0.12);
  s += conifers(c, h * 0.9, 14, hsl(c.green, 30, tod === "night" ? 10 : 32), h * 0.5);
  s += R(0, h * 0.88, w, h * 0.12, hsl(c.green, 30, tod === "night" ? 8 : 26));
  s += conifers(c, h * 1.05, 6, hsl(c.green, 35, tod === "night" ? 6 : 18), h * 0.7);
  if (tod === "night") {
    const flies = [];
    for (let i = 0; i < 16; i++) flies.push([c.rnd() * w, c.between(0.5, 0.95) * h]);
    s += spots(flies, 8, "#f6ff9e", op(0.5) + blur(c, 4)) + spots(flies, 2.5, "#fbffd0");
  }
  return s;
};
scenes.tent = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["night", "dusk"]);
  let s = sky(c, tod);
  s += ridge(c, h * 0.62, h * 0.1, hsl(c.green, 25, tod === "night" ? 14 : 35));
  s += conifers(c, h * 0.7, 10, hsl(c.green, 30, tod === "night" ? 9 : 24), h * 0.22);
  s += R(0, h * 0.7, w, h * 0.3, grad(c, [hsl(c.green, 30, tod === "night" ? 14 : 34), hsl(c.green, 35, 8)]));
  const bell = /glamp|hero/.test(name);
  const n = /entire/.test(name) ? 9 : 3;
  const bodies = new Map();
  let doors = "";
  const glows = [];
  for (let i = 0; i < n; i++) {
    const x = w * (0.12 + (0.78 * i) / Math.max(1, n - 1)) + c.between(-20, 20);
    const y = h * c.between(0.76, 0.9);
    const sz = (h * c.between(0.09, 0.14)) / (n > 3 ? 1.6 : 1);
    const col = c.pick([hsl(c.hue + 200, 40, 55), hsl(35, 60, 70), hsl(10, 55, 55), "#efe6d2"]);
    const body = bell
      ? `M${r(x - sz)} ${r(y)}v-${r(sz * 0.5)}l${r(sz)} -${r(sz * 0.8)}l${r(sz)} ${r(sz * 0.8)}v${r(sz * 0.5)}z`
      : `M${r(x - sz)} ${r(y)}l${r(sz)} -${r(sz)}l${r(sz)} ${r(sz)}z`;
    bodies.set(col, (bodies.get(col) ?? "") + body);
    doors += `M${r(x - sz * 0.25)} ${r(y)}l${r(sz * 0.25)} -${r(sz * (bell ? 0.7 : 0.45))}l${r(sz * 0.25)} ${r(sz * (bell ? 0.7 : 0.45))}z`;
    glows.push([x, y - sz * 0.4]);
  }
  s += spots(glows, h * 0.1, "#ffb347", op(bell ? 0.45 : 0.2) + blur(c, 18));
  for (const [col, d] of bodies) s += P(d, col);
  s += P(doors, bell ? "#ffcf73" : "#2a1d14");
  s +=
    C(w * 0.5, h * 0.93, h * 0.12, glow(c, "#ff9d3b"), op(0.7)) +
    P(
      pts([
        [w * 0.49, h * 0.95],
        [w * 0.5, h * 0.89],
        [w * 0.51, h * 0.95],
      ]),
      "#ffcf5a",
    );
  return s;
};
scenes.trail = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["day", "dawn"]);
  let s = sky(c, tod);
  if (/cycling/.test(name)) {
    s += ridge(c, h * 0.45, h * 0.12, hsl(c.green, 20, 60)) + water(c, h * 0.55, tod);
    s +=
      P(
        pts([
          [0, h * 0.8],
          [w, h * 0.7],
          [w, h],
          [0, h],
        ]),
        hsl(c.hue + 200, 10, 55),
      ) + R(0, h * 0.9, w, h * 0.1, hsl(100, 35, 35));
    const bx = w * 0.45;
    const by = h * 0.8;
    const rad = h * 0.06;
    s += `<g fill="none" stroke="#222" stroke-width="4"><circle cx="${r(bx)}" cy="${r(by)}" r="${r(rad)}"/><circle cx="${r(bx + rad * 2.6)}" cy="${r(by)}" r="${r(rad)}"/><path d="M${r(bx)} ${r(by)}l${r(rad)} -${r(rad * 1.2)}h${r(rad * 1.2)}l${r(rad * 0.4)} ${r(rad * 1.2)}M${r(bx + rad)} ${r(by - rad * 1.2)}l${r(rad * 0.5)} ${r(rad * 1.2)}"/></g>`;
    return s;
  }
  s += ridge(c, h * 0.45, h * 0.2, hsl(c.hue + 180, 15, 65));
  s += ridge(c, h * 0.62, h * 0.16, hsl(c.green, 30, 40));
  s += `<path d="M${r(w * 0.4)} ${r(h)}L${r(w * 0.6)} ${r(h * 0.85)}L${r(w * 0.42)} ${r(h * 0.74)}L${r(w * 0.55)} ${r(h * 0.64)}" fill="none" stroke="${hsl(35, 40, 70)}" stroke-width="${r(h * 0.025)}" stroke-linejoin="round"/>`;
  s += conifers(c, h * 1.02, 10, hsl(c.green, 35, 22), h * 0.3);
  return s;
};
scenes.temple = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["dawn", "day"]);
  let s = sky(c, tod) + water(c, h * 0.72, tod);
  s += P(
    pts([
      [0, h * 0.75],
      [w * 0.2, h * 0.45],
      [w * 0.45, h * 0.4],
      [w * 0.75, h * 0.6],
      [w, h * 0.75],
    ]),
    hsl(c.green, 30, 32),
  );
  const x = w * 0.4;
  let d = "";
  for (let i = 0; i < 5; i++) {
    const y = h * (0.4 - i * 0.06);
    const tw = w * (0.09 - i * 0.012);
    d += `M${r(x - tw)} ${r(y)}Q${r(x)} ${r(y - h * 0.03)} ${r(x + tw)} ${r(y)}L${r(x + tw * 0.6)} ${r(y + h * 0.03)}H${r(x - tw * 0.6)}Z`;
  }
  s += R(x - w * 0.04, h * 0.18, w * 0.08, h * 0.24, hsl(30, 30, 85)) + P(d, hsl(c.hue + 180, 15, 25));
  return s;
};
function houses(c, base, n, col, roof) {
  const { w } = c;
  let walls = "";
  let roofs = "";
  let doors = "";
  const bw = w / n;
  for (let i = 0; i < n; i++) {
    const x = i * bw;
    const hh = r(c.between(0.35, 0.5) * c.h);
    walls += `M${r(x + 2)} ${r(base)}v-${hh}h${r(bw - 4)}v${hh}z`;
    roofs += `M${r(x - 6)} ${r(base - hh)}l${r(bw / 2 + 6)} -${r(bw * 0.28)}l${r(bw / 2 + 6)} ${r(bw * 0.28)}z`;
    doors += `M${r(x + bw * 0.25)} ${r(base)}V${r(base - hh * 0.35)}a${r(bw * 0.25)} ${r(bw * 0.25)} 0 0 1 ${r(bw * 0.5)} 0V${r(base)}Z`;
  }
  return P(walls, col) + P(roofs, roof) + P(doors, "#3a2418", op(0.8));
}
function lanterns(c, y, n, x0 = 0, x1 = c.w) {
  let s = `<path d="M${r(x0)} ${r(y)}Q${r((x0 + x1) / 2)} ${r(y + c.h * 0.06)} ${r(x1)} ${r(y)}" fill="none" stroke="#222" stroke-width="2"/>`;
  const at = [];
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) / n;
    at.push([x0 + (x1 - x0) * t, y + c.h * 0.06 * 4 * t * (1 - t) + c.h * 0.03]);
  }
  s += spots(at, c.h * 0.045, "#ff6a3c", op(0.6) + blur(c, 10));
  return s + spots(at, c.h * 0.026, "#d7261e");
}
scenes.street = (c, name) => {
  const { w, h } = c;
  const tod = todFor(c, name, ["day", "dusk"]);
  let s = sky(c, tod);
  s += houses(c, h * 0.85, c.lite ? 3 : 4, hsl(c.hue + 2, 55, tod === "day" ? 48 : 35), hsl(c.hue + 200, 10, 25));
  s += R(0, h * 0.85, w, h * 0.15, hsl(30, 15, 55)) + lanterns(c, h * 0.18, c.lite ? 4 : 7);
  return s;
};
scenes.lantern = (c) => {
  const { w, h } = c;
  let s = sky(c, "dusk");
  s += houses(c, h * 0.7, 5, hsl(c.hue + 20, 25, 30), hsl(c.hue + 200, 10, 18));
  s += houses(c, h * 1.02, 3, hsl(c.hue + 15, 30, 22), hsl(c.hue + 200, 10, 14));
  s += lanterns(c, h * 0.12, 6) + lanterns(c, h * 0.35, 5, w * 0.1, w * 0.9);
  return s;
};
scenes.market = (c) => {
  const { w, h } = c;
  let s = sky(c, "night", 0.6) + R(0, h * 0.6, w, h * 0.4, hsl(c.hue + 220, 20, 14));
  const n = 4;
  for (let i = 0; i < n; i++) {
    const x = (w / n) * i + 8;
    const sw = w / n - 16;
    const col = c.pick(["#d7261e", "#f2a516", "#2e7dbb", "#2b9a5a"]);
    s += R(x, h * 0.42, sw, h * 0.3, hsl(30, 40, 25)) + R(x + 10, h * 0.5, sw - 20, h * 0.2, "#ffcf73", op(0.85));
    s += P(
      pts([
        [x - 8, h * 0.44],
        [x + sw / 2, h * 0.3],
        [x + sw + 8, h * 0.44],
      ]),
      col,
    );
  }
  const crowd = [];
  for (let i = 0; i < 14; i++) crowd.push([c.rnd() * w, h * c.between(0.8, 0.95)]);
  s += spots(crowd, h * 0.05, hsl(c.hue + 220, 15, 12));
  return s + lanterns(c, h * 0.1, 8);
};
scenes.museum = (c, name) => {
  const { w, h } = c;
  let s = sky(c, todFor(c, name, ["day"]));
  s += R(0, h * 0.75, w, h * 0.25, hsl(40, 15, 75));
  s +=
    R(w * 0.15, h * 0.42, w * 0.7, h * 0.2, "#f3f1ec") +
    R(w * 0.3, h * 0.3, w * 0.4, h * 0.2, "#e4e1da") +
    R(w * 0.22, h * 0.62, w * 0.56, h * 0.13, "#fafaf7");
  s +=
    R(w * 0.15, h * 0.5, w * 0.7, h * 0.04, hsl(c.hue + 190, 30, 45), op(0.6)) +
    R(w * 0.42, h * 0.64, w * 0.16, h * 0.11, hsl(c.hue + 200, 25, 35));
  return s + conifers(c, h * 0.8, 6, hsl(110, 30, 35), h * 0.16);
};
scenes.facade = (c, name) => {
  const { w, h } = c;
  const theme = c.theme.view;
  let s = sky(c, todFor(c, name, ["day", "dusk"]));
  if (theme === "forest" || theme === "lake") {
    s += ridge(c, h * 0.5, h * 0.12, hsl(c.green, 25, 50));
    s +=
      R(w * 0.2, h * 0.5, w * 0.6, h * 0.3, hsl(35, 35, 75)) +
      P(
        pts([
          [w * 0.15, h * 0.5],
          [w * 0.5, h * 0.3],
          [w * 0.85, h * 0.5],
        ]),
        hsl(20, 25, 30),
      );
    s +=
      R(w * 0.3, h * 0.58, w * 0.12, h * 0.12, "#ffd98a") +
      R(w * 0.58, h * 0.58, w * 0.12, h * 0.12, "#ffd98a") +
      R(w * 0.46, h * 0.6, w * 0.08, h * 0.2, "#5a3b25");
    return s + R(0, h * 0.8, w, h * 0.2, hsl(c.green, 35, 34)) + conifers(c, h * 0.82, 5, hsl(c.green, 35, 22), h * 0.3);
  }
  const bx = w * 0.3;
  const bw = w * 0.4;
  s += city(c, h * 0.85, h * 0.5, hsl(c.hue + 210, 10, 70), null, 8);
  s += R(bx, h * 0.12, bw, h * 0.73, hsl(c.hue, 18, 82));
  const id = newId(c);
  c.store.defs.push(
    `<pattern id="${id}" width="${r(bw / 6)}" height="${r(h * 0.07)}" patternUnits="userSpaceOnUse"><rect x="6" y="6" width="${r(bw / 6 - 12)}" height="${r(h * 0.07 - 12)}" fill="${hsl(c.hue + 190, 35, 45)}"/></pattern>`,
  );
  s += R(bx, h * 0.12, bw, h * 0.58, `url(#${id})`, ` transform="translate(${r(bw / 30)} 0)"`);
  s += R(bx - w * 0.03, h * 0.7, bw + w * 0.06, h * 0.03, hsl(c.hue, 40, 30)) + R(bx + bw * 0.35, h * 0.73, bw * 0.3, h * 0.12, "#ffd98a");
  return (
    s +
    R(0, h * 0.85, w, h * 0.15, hsl(30, 8, 45)) +
    C(w * 0.18, h * 0.74, h * 0.1, hsl(110, 35, 35)) +
    C(w * 0.82, h * 0.74, h * 0.1, hsl(110, 35, 35))
  );
};
scenes.pool = (c, name) => {
  const { w, h } = c;
  let s = scenes.lake(c, name + "-day");
  s += R(0, h * 0.62, w, h * 0.38, grad(c, [hsl(185, 70, 60), hsl(195, 70, 40)]));
  s += R(0, h * 0.6, w, h * 0.025, "#f2efe8");
  let d = "";
  for (let i = 0; i < 6; i++) d += `M${r(c.rnd() * w)} ${r(h * c.between(0.66, 0.95))}h${r(w * 0.08)}v3h-${r(w * 0.08)}z`;
  s += P(d, "#fff", op(0.5));
  return (
    s +
    P(
      pts([
        [w * 0.05, h],
        [w * 0.12, h * 0.86],
        [w * 0.3, h * 0.86],
        [w * 0.28, h],
      ]),
      "#f4f1ea",
    )
  );
};
scenes.onsen = (c) => {
  const { w, h } = c;
  let s = R(0, 0, w, h, grad(c, [hsl(c.hue + 150, 20, 30), hsl(c.hue + 140, 25, 15)]));
  s += conifers(c, h * 0.5, 8, hsl(130, 25, 22), h * 0.4);
  s += R(0, h * 0.5, w, h * 0.5, hsl(30, 10, 28));
  s +=
    E(w * 0.5, h * 0.72, w * 0.4, h * 0.16, "#6e6258") +
    E(w * 0.5, h * 0.72, w * 0.36, h * 0.12, grad(c, [hsl(180, 35, 62), hsl(190, 40, 38)]));
  for (const light of [34, 46]) {
    const rocks = [];
    for (let i = 0; i < (c.lite ? 3 : 5); i++)
      rocks.push([w * c.between(0.15, 0.85), h * c.pick([c.between(0.54, 0.58), c.between(0.84, 0.88)])]);
    s += spots(rocks, h * 0.03, hsl(30, 8, light));
  }
  let d = "";
  for (let i = 0; i < 4; i++) d += `M${r(w * (0.32 + i * 0.12))} ${r(h * 0.62)}c-20 -30 20 -40 0 -70s20 -40 0 -70`;
  s += `<path d="${d}" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".45"/>`;
  if (c.lite) return s;
  return (
    s +
    R(w * 0.85, h * 0.3, w * 0.04, h * 0.22, "#c9b89a") +
    R(w * 0.835, h * 0.3, w * 0.07, h * 0.035, "#8a7a62") +
    R(w * 0.86, h * 0.34, w * 0.02, h * 0.04, "#ffd98a")
  );
};
scenes.spa = scenes.onsen;
scenes.train = (c, name) => {
  const { w, h } = c;
  let s = sky(c, todFor(c, name, ["day"])) + ridge(c, h * 0.55, h * 0.12, hsl(c.green, 25, 55));
  s += R(0, h * 0.62, w, h * 0.38, hsl(90, 30, 45)) + R(0, h * 0.66, w, h * 0.02, "#555");
  s += P(
    `M${r(w * 0.08)} ${r(h * 0.66)}V${r(h * 0.5)}H${r(w * 0.78)}C${r(w * 0.92)} ${r(h * 0.5)} ${r(w * 0.96)} ${r(h * 0.6)} ${r(w * 0.98)} ${r(h * 0.66)}Z`,
    "#f6f6f2",
  );
  s += R(w * 0.08, h * 0.6, w * 0.88, h * 0.02, "#e86a1f") + R(w * 0.12, h * 0.53, w * 0.62, h * 0.04, hsl(c.hue + 200, 30, 30));
  let d = "";
  for (let i = 0; i < 5; i++) d += `M0 ${r(h * (0.52 + i * 0.03))}h${r(w * c.between(0.03, 0.07))}v2H0z`;
  return s + P(d, "#fff", op(0.8));
};

/** Outdoor scenes use natural colours (a hue near 30 plus a little variation), not the hotel's. */
for (const key of [
  "skyline",
  "harbour",
  "river",
  "lake",
  "sea",
  "boat",
  "forest",
  "tent",
  "trail",
  "temple",
  "street",
  "lantern",
  "market",
  "museum",
  "facade",
  "pool",
  "onsen",
  "train",
]) {
  const draw = scenes[key];
  scenes[key] = (c, name) => draw({ ...c, hue: 30 + c.j }, name);
}
scenes.spa = scenes.onsen;

// ------------------------------------------------------------------ interiors
function interior(c, wallHue, light = 86) {
  const { w, h } = c;
  let s = R(0, 0, w, h * 0.72, grad(c, [hsl(wallHue, 22, light), hsl(wallHue, 25, light - 10)]));
  s += R(0, h * 0.72, w, h * 0.28, hsl(27, 36, 44));
  return s + R(0, h * 0.715, w, h * 0.012, hsl(wallHue, 15, light - 25));
}
/** A window showing the hotel's view (a nested svg is clipped to its box). */
function windowView(c, x, y, ww, wh, tod = "day") {
  const view =
    { city: "skyline", lake: "lake", forest: "forest", sea: "sea", mountain: "trail", garden: "onsen", street: "street" }[c.theme.view] ??
    "skyline";
  const sub = { ...c, w: 400, h: 300, lite: true };
  const inner = scenes[view](sub, `${view}-${tod}`);
  return (
    `<svg x="${r(x)}" y="${r(y)}" width="${r(ww)}" height="${r(wh)}" viewBox="0 0 400 300" preserveAspectRatio="xMidYMid slice">${inner}</svg>` +
    `<rect x="${r(x)}" y="${r(y)}" width="${r(ww)}" height="${r(wh)}" fill="none" stroke="#f5f2ea" stroke-width="${r(c.h * 0.015)}"/>`
  );
}
function bedAt(c, x, y, bw, accent, kind = "bed") {
  const { h } = c;
  const bh = h * 0.12;
  if (kind === "futon")
    return (
      R(x, y + bh * 0.9, bw, bh * 0.5, "#f7f4ec", ' rx="8"') +
      R(x, y + bh * 1.1, bw * 0.7, bh * 0.3, accent, ' rx="6"') +
      R(x + bw * 0.75, y + bh * 0.95, bw * 0.2, bh * 0.3, "#fff", ' rx="6"')
    );
  let s = R(x - 6, y - bh * 1.1, bw + 12, bh * 1.4, hsl(28, 30, 38), ' rx="10"');
  const pw = Math.min(bw * 0.42, h * 0.16);
  const ph = bh * 0.55;
  s += `<path d="M${r(x + bw * 0.06 + ph / 2)} ${r(y - bh * 0.08)}h${r(pw - ph)}M${r(x + bw * 0.94 - pw + ph / 2)} ${r(y - bh * 0.08)}h${r(pw - ph)}" stroke="#fff" stroke-width="${r(ph)}" stroke-linecap="round"/>`;
  s += R(x - 4, y + bh * 0.12, bw + 8, bh * 1.33, "#f3f0e8", ' rx="8"') + R(x - 4, y + bh * 0.6, bw + 8, bh * 0.3, accent);
  return s;
}
function lampTable(c, x, y) {
  const { h } = c;
  return (
    C(x, y - h * 0.1, h * 0.14, glow(c, "#ffe2a8"), op(0.7)) +
    R(x - h * 0.05, y, h * 0.1, h * 0.12, hsl(28, 30, 30)) +
    P(
      pts([
        [x - h * 0.035, y - h * 0.07],
        [x + h * 0.035, y - h * 0.07],
        [x + h * 0.05, y - h * 0.01],
        [x - h * 0.05, y - h * 0.01],
      ]),
      "#f8ecd0",
    )
  );
}
scenes.room = (c, name) => {
  const { w, h } = c;
  const variant = /hero/.test(name) ? "1" : (name.match(/-(\d)$/) ?? [0, "1"])[1];
  const accent = hsl(c.hue + c.pick([0, 150, 200, 330]), 45, 45);
  const tatami = /tatami|washitsu/.test(name);
  if (variant === "2") return bathroom(c, name, accent);
  let s = interior(c, c.hue + 20, tatami ? 80 : 88);
  if (tatami)
    s +=
      R(0, h * 0.72, w, h * 0.28, hsl(70, 35, 62)) +
      P(
        `M${r(w / 3)} ${r(h * 0.72)}V${r(h)}M${r((2 * w) / 3)} ${r(h * 0.72)}V${r(h)}M0 ${r(h * 0.86)}H${r(w)}`,
        "none",
        ' stroke="#6b6b3a" stroke-width="3"',
      );
  const left = c.rnd() < 0.5;
  const wx = left ? w * 0.06 : w * 0.62;
  const tod = /hero/.test(name) ? "dusk" : c.pick(["day", "day", "dusk"]);
  if (variant === "3") {
    s += windowView(c, w * 0.1, h * 0.08, w * 0.55, h * 0.56, tod);
    s += R(w * 0.05, h * 0.06, w * 0.06, h * 0.66, accent, op(0.7)) + R(w * 0.64, h * 0.06, w * 0.06, h * 0.66, accent, op(0.7));
    s +=
      R(w * 0.62, h * 0.58, w * 0.26, h * 0.2, accent, ' rx="18"') +
      R(w * 0.6, h * 0.5, w * 0.06, h * 0.3, accent, ' rx="12"') +
      R(w * 0.84, h * 0.5, w * 0.06, h * 0.3, accent, ' rx="12"');
    s +=
      E(w * 0.45, h * 0.75, w * 0.08, h * 0.02, hsl(28, 30, 30)) +
      R(w * 0.445, h * 0.75, w * 0.01, h * 0.12, hsl(28, 30, 30)) +
      R(w * 0.43, h * 0.71, w * 0.03, h * 0.04, "#fff");
    return s + E(w * 0.93, h * 0.5, w * 0.05, h * 0.12, hsl(120, 35, 35)) + R(w * 0.91, h * 0.6, w * 0.04, h * 0.12, hsl(20, 30, 40));
  }
  if (!tatami) s += windowView(c, wx, h * 0.1, w * 0.32, h * 0.46, tod) + R(wx - w * 0.03, h * 0.06, w * 0.04, h * 0.66, accent, op(0.6));
  else
    s +=
      windowView(c, wx, h * 0.1, w * 0.32, h * 0.46, tod) +
      P(
        `M${r(wx + w * 0.107)} ${r(h * 0.1)}v${r(h * 0.46)}M${r(wx + w * 0.213)} ${r(h * 0.1)}v${r(h * 0.46)}M${r(wx)} ${r(h * 0.33)}h${r(w * 0.32)}`,
        "none",
        ' stroke="#efe8d6" stroke-width="6"',
      );
  const area = left ? [w * 0.42, w * 0.95] : [w * 0.05, w * 0.58];
  const span = area[1] - area[0];
  const by = h * 0.56;
  if (/bunk/.test(name)) {
    const bx = area[0] + span * 0.1;
    const bw = span * 0.8;
    s += R(bx - 10, h * 0.12, 10, h * 0.76, hsl(28, 30, 30)) + R(bx + bw, h * 0.12, 10, h * 0.76, hsl(28, 30, 30));
    s +=
      R(bx, h * 0.38, bw, h * 0.08, "#fbfaf6") +
      R(bx, h * 0.44, bw, h * 0.04, accent) +
      R(bx, h * 0.72, bw, h * 0.08, "#fbfaf6") +
      R(bx, h * 0.78, bw, h * 0.04, accent);
    return s + R(bx, h * 0.48, bw, h * 0.02, hsl(28, 30, 30));
  }
  if (tatami)
    return (
      s +
      bedAt(c, area[0] + span * 0.05, h * 0.62, span * 0.42, accent, "futon") +
      bedAt(c, area[0] + span * 0.52, h * 0.62, span * 0.42, accent, "futon") +
      E(area[0] + span * 0.5, h * 0.9, span * 0.18, h * 0.03, hsl(25, 40, 28))
    );
  if (/twin|family|accessible/.test(name)) {
    s += bedAt(c, area[0] + span * 0.04, by, span * 0.4, accent) + bedAt(c, area[0] + span * 0.56, by, span * 0.4, accent);
    s += R(area[0] + span * 0.15, h * 0.2, span * 0.7, h * 0.14, hsl(c.hue + 200, 25, 60), ' stroke="#fff" stroke-width="6"');
    return s + lampTable(c, area[0] + span * 0.5, by + h * 0.02);
  }
  s +=
    bedAt(c, area[0] + span * 0.18, by, span * 0.64, accent) +
    R(area[0] + span * 0.3, h * 0.2, span * 0.4, h * 0.15, hsl(c.hue + 170, 30, 62), ' stroke="#fff" stroke-width="6"');
  s += lampTable(c, area[0] + span * 0.06, by + h * 0.02) + lampTable(c, area[0] + span * 0.94, by + h * 0.02);
  if (/suite|villa|hero/.test(name)) s += R(area[0] + span * 0.2, h * 0.86, span * 0.6, h * 0.1, hsl(c.hue + 200, 20, 40), ' rx="14"');
  return s;
};
function bathroom(c, name, accent) {
  const { w, h } = c;
  const id = newId(c);
  c.store.defs.push(
    `<pattern id="${id}" width="48" height="48" patternUnits="userSpaceOnUse"><path d="M0 0H48V48" fill="none" stroke="#fff" stroke-width="2" opacity=".6"/></pattern>`,
  );
  let s = interior(c, c.hue + 180, 84) + R(0, 0, w, h * 0.72, `url(#${id})`);
  if (/villa|hot|onsen/.test(name) || c.theme.view === "garden") {
    s += windowView(c, w * 0.2, h * 0.06, w * 0.6, h * 0.5);
    s +=
      R(w * 0.12, h * 0.56, w * 0.76, h * 0.32, hsl(30, 40, 55), ' rx="10"') + R(w * 0.15, h * 0.58, w * 0.7, h * 0.08, hsl(185, 45, 62));
    return (
      s +
      `<path d="M${r(w * 0.4)} ${r(h * 0.56)}c-20 -30 20 -40 0 -70M${r(w * 0.6)} ${r(h * 0.56)}c-20 -30 20 -40 0 -70" fill="none" stroke="#fff" stroke-width="6" opacity=".6"/>`
    );
  }
  const tub = /king|suite|family|lake-king|villa/.test(name) || c.rnd() < 0.4;
  if (tub)
    s +=
      R(w * 0.08, h * 0.55, w * 0.48, h * 0.22, "#fdfdfb", ' rx="60"') +
      R(w * 0.12, h * 0.57, w * 0.4, h * 0.05, hsl(190, 40, 80), ' rx="20"') +
      windowView(c, w * 0.1, h * 0.1, w * 0.4, h * 0.36);
  else
    s +=
      R(w * 0.1, h * 0.08, w * 0.38, h * 0.8, hsl(190, 30, 90), op(0.55)) +
      R(w * 0.28, h * 0.1, w * 0.04, h * 0.012, "#999") +
      C(w * 0.3, h * 0.13, h * 0.035, "#bbb");
  s += R(w * 0.62, h * 0.08, w * 0.28, h * 0.34, hsl(200, 20, 92), ' stroke="#d8d2c4" stroke-width="8"');
  s +=
    R(w * 0.6, h * 0.48, w * 0.32, h * 0.05, "#f6f4ef") +
    R(w * 0.6, h * 0.53, w * 0.32, h * 0.2, hsl(28, 35, 40)) +
    E(w * 0.76, h * 0.49, w * 0.07, h * 0.015, "#fff");
  return s + R(w * 0.64, h * 0.58, w * 0.1, h * 0.1, accent, op(0.6)) + E(w * 0.88, h * 0.44, w * 0.03, h * 0.06, hsl(120, 35, 35));
}
scenes.lobby = (c) => {
  const { w, h } = c;
  let s = interior(c, c.hue + 10, 82);
  s += R(w * 0.1, 0, w * 0.8, h * 0.72, hsl(c.hue + 10, 30, 90), op(0.4));
  for (let i = 0; i < 3; i++)
    s +=
      C(w * (0.25 + i * 0.25), h * 0.22, h * 0.14, glow(c, "#fff3cf")) +
      C(w * (0.25 + i * 0.25), h * 0.22, h * 0.035, "#ffe7a6") +
      R(w * (0.25 + i * 0.25) - 1, 0, 2, h * 0.19, "#7b6a50");
  s += R(w * 0.3, h * 0.55, w * 0.4, h * 0.17, hsl(28, 35, 32)) + R(w * 0.3, h * 0.55, w * 0.4, h * 0.02, "#e9dcc0");
  s += E(w * 0.1, h * 0.55, w * 0.05, h * 0.14, hsl(120, 35, 32)) + R(w * 0.08, h * 0.62, w * 0.04, h * 0.1, "#8a6a4a");
  s += E(w * 0.9, h * 0.55, w * 0.05, h * 0.14, hsl(120, 35, 32)) + R(w * 0.88, h * 0.62, w * 0.04, h * 0.1, "#8a6a4a");
  return s + R(0, h * 0.85, w, h * 0.04, "#fff", op(0.15));
};
function tables(c, n, y, cloth) {
  const { w, h } = c;
  let legs = "";
  let tops = "";
  let glasses = "";
  const rx = w / n / 2.6;
  for (let i = 0; i < n; i++) {
    const x = (w * (i + 0.5)) / n;
    legs += `M${r(x - w * 0.01)} ${r(y)}h${r(w * 0.02)}v${r(h * 0.16)}h-${r(w * 0.02)}z`;
    tops += `M${r(x - rx)} ${r(y)}a${r(rx)} ${r(h * 0.035)} 0 1 0 ${r(2 * rx)} 0a${r(rx)} ${r(h * 0.035)} 0 1 0 -${r(2 * rx)} 0`;
    glasses += `M${r(x - w * 0.05)} ${r(y - 2)}v-${r(h * 0.05)}M${r(x + w * 0.05)} ${r(y - 2)}v-${r(h * 0.05)}`;
  }
  return P(legs, "#3b2a20") + P(tops, cloth) + `<path d="${glasses}" stroke="#dfe9ee" stroke-width="5"/>`;
}
scenes.dining = (c) => {
  const { w, h } = c;
  let s = interior(c, c.hue, 72);
  s += windowView(c, w * 0.08, h * 0.12, w * 0.84, h * 0.38, c.pick(["day", "dusk"]));
  let d = "";
  const lamps = [];
  for (let i = 0; i < 4; i++) {
    const x = w * (0.2 + i * 0.2);
    d += `M${r(x - 1)} 0h2v${r(h * 0.08)}h${r(w * 0.014)}l${r(w * 0.015)} ${r(h * 0.04)}h-${r(w * 0.06)}l${r(w * 0.015)} -${r(h * 0.04)}h${r(w * 0.014)}z`;
    lamps.push([x, h * 0.14, h * 0.06]);
  }
  s += dots(lamps, "#ffd58a", op(0.8) + blur(c, 12)) + P(d, hsl(c.hue + 30, 50, 35));
  return s + tables(c, 3, h * 0.74, "#fbf8f0");
};
scenes.breakfast = (c) => {
  const { w, h } = c;
  let s = R(0, 0, w, h, grad(c, [hsl(c.hue + 20, 40, 88), hsl(c.hue + 20, 35, 74)]));
  s += R(0, h * 0.55, w, h * 0.45, hsl(28, 35, 45));
  s +=
    E(w * 0.3, h * 0.72, w * 0.16, h * 0.09, "#fbfaf6") +
    C(w * 0.26, h * 0.7, h * 0.04, "#f2c14e") +
    C(w * 0.33, h * 0.72, h * 0.035, "#d98a3a") +
    C(w * 0.29, h * 0.76, h * 0.03, "#c0392b");
  s +=
    E(w * 0.66, h * 0.7, w * 0.08, h * 0.05, "#fff") +
    R(w * 0.6, h * 0.56, w * 0.12, h * 0.14, "#fff", ' rx="10"') +
    R(w * 0.615, h * 0.575, w * 0.09, h * 0.03, "#5a3522");
  return s + E(w * 0.86, h * 0.66, w * 0.07, h * 0.05, "#fbfaf6") + E(w * 0.86, h * 0.655, w * 0.05, h * 0.03, "#f4a259");
};
scenes.tea = (c) => {
  const { w, h } = c;
  let s = R(0, 0, w, h, grad(c, [hsl(c.hue + 340, 30, 86), hsl(c.hue + 340, 30, 72)]));
  s += R(0, h * 0.62, w, h * 0.38, hsl(c.hue + 330, 25, 92));
  s += R(w * 0.3 - 3, h * 0.16, 6, h * 0.56, "#b08d57");
  for (let i = 0; i < 3; i++) {
    const y = h * (0.3 + i * 0.15);
    const rw = w * (0.1 + i * 0.03);
    s +=
      E(w * 0.3, y, rw, h * 0.02, "#fff") +
      C(w * 0.3 - rw * 0.4, y - h * 0.025, h * 0.025, c.pick(["#f4a6b8", "#f2c14e", "#a7d7a8", "#c98c5a"])) +
      C(w * 0.3 + rw * 0.35, y - h * 0.025, h * 0.025, c.pick(["#f4a6b8", "#f2c14e", "#a7d7a8"]));
  }
  s +=
    E(w * 0.66, h * 0.6, w * 0.1, h * 0.12, "#fdfcf8") +
    R(w * 0.74, h * 0.52, w * 0.08, h * 0.02, "#fdfcf8") +
    E(w * 0.66, h * 0.47, w * 0.03, h * 0.015, "#e6d8b8");
  return s + E(w * 0.86, h * 0.72, w * 0.06, h * 0.04, "#fff") + E(w * 0.86, h * 0.71, w * 0.045, h * 0.02, "#9c4a1a");
};
scenes.gym = (c) => {
  const { w, h } = c;
  let s = interior(c, c.hue + 200, 80);
  s += windowView(c, w * 0.05, h * 0.08, w * 0.9, h * 0.42);
  for (let i = 0; i < 3; i++) {
    const x = w * (0.12 + i * 0.28);
    s +=
      R(x, h * 0.78, w * 0.2, h * 0.04, "#2d2d2d", ' rx="6"') +
      R(x + w * 0.17, h * 0.56, w * 0.02, h * 0.24, "#3a3a3a") +
      R(x + w * 0.14, h * 0.54, w * 0.08, h * 0.04, "#1f1f1f", ' rx="4"');
  }
  return (
    s +
    R(w * 0.1, h * 0.9, w * 0.8, h * 0.02, "#555") +
    C(w * 0.2, h * 0.9, h * 0.03, "#222") +
    C(w * 0.5, h * 0.9, h * 0.03, "#222") +
    C(w * 0.8, h * 0.9, h * 0.03, "#222")
  );
};
scenes.bar = (c, name) => {
  const { w, h } = c;
  let s = scenes.skyline(c, name + "-night");
  const bulbs = [];
  for (let i = 0; i <= 14; i++) bulbs.push([(i / 14) * w, h * 0.08 + Math.sin((i / 14) * Math.PI) * h * 0.08]);
  s +=
    `<path d="M0 ${r(h * 0.08)}Q${r(w / 2)} ${r(h * 0.24)} ${r(w)} ${r(h * 0.08)}" fill="none" stroke="#222" stroke-width="1.5"/>` +
    spots(bulbs, h * 0.012, "#ffe9a8");
  s += R(0, h * 0.7, w, h * 0.3, hsl(28, 35, 20)) + R(0, h * 0.7, w, h * 0.03, hsl(28, 40, 40));
  let glasses = "";
  const tops = [];
  for (let i = 0; i < 5; i++) {
    glasses += `M${r(w * (0.12 + i * 0.18))} ${r(h * 0.62)}h${r(w * 0.015)}v${r(h * 0.08)}h-${r(w * 0.015)}z`;
    tops.push([w * (0.127 + i * 0.18), h * 0.61]);
  }
  s += P(glasses, "#dfe9ee", op(0.7)) + spots(tops, h * 0.02, c.pick(["#e8743b", "#f2c14e", "#d7263d"]));
  return s;
};
scenes.lounge = (c) => {
  const { w, h } = c;
  let s = interior(c, c.hue + 30, 78);
  s += R(w * 0.04, h * 0.1, w * 0.36, h * 0.62, hsl(28, 35, 32));
  const books = define(
    c,
    "books",
    (id) =>
      `<pattern id="${id}" width="${r(w * 0.09)}" height="${r(h * 0.15)}" patternUnits="userSpaceOnUse">${[0, 1, 2, 3].map((i) => R(i * w * 0.022, h * (0.03 + (i % 2) * 0.01), w * 0.018, h * 0.12, hsl(c.hue + i * 67, 40, 50))).join("")}</pattern>`,
  );
  s += R(w * 0.055, h * 0.13, w * 0.33, h * 0.57, books);
  s += windowView(c, w * 0.48, h * 0.1, w * 0.46, h * 0.45);
  s +=
    R(w * 0.5, h * 0.66, w * 0.18, h * 0.14, hsl(c.hue + 200, 25, 35), ' rx="14"') +
    R(w * 0.74, h * 0.66, w * 0.18, h * 0.14, hsl(c.hue + 200, 25, 35), ' rx="14"');
  return s + R(w * 0.66, h * 0.76, w * 0.1, h * 0.02, "#3b2a20") + C(w * 0.47, h * 0.5, h * 0.12, glow(c, "#ffe2a8"), op(0.6));
};
scenes.laundry = (c) => {
  const { w, h } = c;
  let s = interior(c, c.hue + 190, 88);
  for (let i = 0; i < 4; i++) {
    const x = w * (0.08 + i * 0.22);
    s += R(x, h * 0.45, w * 0.18, h * 0.35, "#f4f4f2", ' rx="8" stroke="#c9c9c4" stroke-width="3"');
    s +=
      C(x + w * 0.09, h * 0.65, h * 0.1, "#cfd8dc") +
      C(x + w * 0.09, h * 0.65, h * 0.07, hsl(c.hue + 200, 45, 60)) +
      R(x + w * 0.02, h * 0.48, w * 0.06, h * 0.02, "#9aa");
  }
  return (
    s +
    R(w * 0.08, h * 0.2, w * 0.84, h * 0.03, hsl(28, 30, 40)) +
    R(w * 0.15, h * 0.12, w * 0.1, h * 0.08, hsl(c.hue + 30, 40, 60), ' rx="6"') +
    R(w * 0.7, h * 0.12, w * 0.12, h * 0.08, hsl(40, 40, 70), ' rx="6"')
  );
};
scenes.gift = (c) => {
  const { w, h } = c;
  let s = R(0, 0, w, h, grad(c, [hsl(c.hue + 330, 45, 86), hsl(c.hue + 300, 40, 74)]));
  for (const hue of [10, 50, 190, 280]) {
    const bits = [];
    for (let i = 0; i < 7; i++) bits.push([c.rnd() * w, c.rnd() * h]);
    s += spots(bits, 5, hsl(hue, 70, 60));
  }
  const bx = w * 0.35;
  const bw = w * 0.3;
  s += R(bx, h * 0.42, bw, h * 0.38, hsl(c.hue + 350, 60, 50)) + R(bx - 10, h * 0.34, bw + 20, h * 0.1, hsl(c.hue + 350, 60, 44));
  s += R(bx + bw * 0.44, h * 0.34, bw * 0.12, h * 0.46, "#f6d365");
  return s + E(bx + bw * 0.38, h * 0.3, bw * 0.14, h * 0.05, "#f6d365") + E(bx + bw * 0.62, h * 0.3, bw * 0.14, h * 0.05, "#f6d365");
};
scenes.phone = (c) => {
  const { w, h } = c;
  let s = R(0, 0, w, h, grad(c, [hsl(140, 40, 88), hsl(150, 35, 72)]));
  s += R(w * 0.38, h * 0.1, w * 0.24, h * 0.8, "#1f1f1f", ' rx="28"') + R(w * 0.4, h * 0.15, w * 0.2, h * 0.68, "#fdfdfb", ' rx="10"');
  s +=
    C(w * 0.5, h * 0.38, h * 0.1, "#06c755") +
    `<path d="M${r(w * 0.47)} ${r(h * 0.38)}l${r(h * 0.03)} ${r(h * 0.035)}l${r(h * 0.055)} -${r(h * 0.07)}" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>`;
  s += R(w * 0.43, h * 0.56, w * 0.14, h * 0.03, "#ddd", ' rx="6"') + R(w * 0.43, h * 0.62, w * 0.1, h * 0.03, "#ddd", ' rx="6"');
  return s + R(w * 0.12, h * 0.55, w * 0.2, h * 0.13, hsl(c.hue + 200, 50, 45), ' rx="10" transform="rotate(-12 200 300)"');
};

// ------------------------------------------------------------------ logo and icon
function emblem(kind, x, y, s, fill) {
  const k = s / 64;
  const t = (d) => `<path transform="translate(${r(x)} ${r(y)}) scale(${k.toFixed(3)})" d="${d}" fill="${fill}"/>`;
  const shapes = {
    arch: "M12 54V26a20 20 0 0 1 40 0v28h-8V27a12 12 0 0 0-24 0v27zM8 58h48v4H8z",
    peak: "M4 48 24 18l10 14 8-10 18 26zM6 54h52v4H6z",
    tent: "M32 8 58 56H38L32 40 26 56H6z",
    door: "M16 58V24a16 16 0 0 1 32 0v34zm14-20v6h4v-6z",
    wave: "M4 36q8-10 16 0t16 0 16 0 8-4v8q-8 6-16-2t-16 0-16 0-8 0zM4 50q8-10 16 0t16 0 16 0 8-4v8q-8 6-16-2t-16 0-16 0-8 0z",
    anchor: "M30 6h4v10h8v4h-8v30q12-2 16-14h6q-4 22-24 24Q12 58 8 36h6q4 12 16 14V20h-8v-4h8z",
    lantern: "M28 4h8v6h-8zM32 10c16 0 22 10 22 22S48 54 32 54 10 44 10 32s6-22 22-22zM26 54h12v6H26z",
    steam:
      "M10 44h44q0 14-22 14T10 44zM20 38q-6-8 0-14t0-14h4q6 8 0 14t0 14zm10 0q-6-8 0-14t0-14h4q6 8 0 14t0 14zm10 0q-6-8 0-14t0-14h4q6 8 0 14t0 14z",
  };
  return t(shapes[kind] ?? shapes.arch);
}
function textWidth(text, size) {
  let n = 0;
  for (const ch of text) n += ch.charCodeAt(0) > 0x2e80 ? 1 : ch === " " ? 0.35 : 0.68;
  return n * size;
}
function logo(theme, hotelName, white, w, h) {
  const fg = white ? "#ffffff" : hsl(theme.hue, 35, 22);
  const accent = white ? "#ffffff" : hsl(theme.hue, 55, 42);
  const [big, small] = theme.words ?? [hotelName.toUpperCase(), ""];
  const ex = h * 0.12;
  const es = h * 0.76;
  const tx = ex + es + h * 0.18;
  const room = w - tx - 4;
  const fit = (text, size) => (textWidth(text, size) > room ? ` textLength="${r(room)}" lengthAdjust="spacingAndGlyphs"` : "");
  const bigSize = r(h * 0.38);
  const smallSize = r(h * 0.2);
  let s = emblem(theme.emblem, ex, (h - es) / 2, es, accent);
  s += `<text x="${r(tx)}" y="${r(h * 0.52)}" font-family="serif" font-size="${bigSize}" letter-spacing="1" fill="${fg}"${fit(big, bigSize)}>${esc(big)}</text>`;
  if (small)
    s += `<text x="${r(tx)}" y="${r(h * 0.84)}" font-family="sans-serif" font-size="${smallSize}" letter-spacing="2" fill="${fg}"${op(0.85)}${fit(small, smallSize)}>${esc(small)}</text>`;
  return s;
}
function icon(theme, w) {
  return R(0, 0, w, w, hsl(theme.hue, 45, 30), ` rx="${r(w * 0.22)}"`) + emblem(theme.emblem, w * 0.16, w * 0.16, w * 0.68, "#fdf8ee");
}
const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");

// ------------------------------------------------------------------ which files, what size
function collectImages() {
  const images = new Map(); // src → {w,h,hotelFile}
  for (const file of readdirSync(HOTELS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const data = JSON.parse(readFileSync(join(HOTELS_DIR, file), "utf8"));
    const name = data.hotel?.hotel_name?.["en-US"] ?? Object.values(data.hotel?.hotel_name ?? {})[0] ?? "";
    const visit = (node) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== "object") return;
      for (const value of Object.values(node)) {
        if (typeof value === "string" && /^\/demo\/[\w-]+\/[\w-]+\.svg$/.test(value)) {
          const known = images.get(value);
          const sized = Number.isInteger(node.width) && Number.isInteger(node.height);
          if (!known || (sized && !known.sized)) images.set(value, { w: sized ? node.width : 0, h: sized ? node.height : 0, sized, name });
        } else visit(value);
      }
    };
    visit(data);
  }
  for (const [src, info] of images) {
    if (info.sized) continue;
    const base = src.split("/").pop();
    if (base === "icon.svg") Object.assign(info, { w: 64, h: 64 });
    else if (base.startsWith("logo-")) Object.assign(info, { w: 240, h: 64 });
    else Object.assign(info, { w: 800, h: 600 });
  }
  return images;
}

function draw(src, { w, h, name }) {
  const [, , hotel, fileName] = src.split("/");
  const base = fileName.replace(/\.svg$/, "");
  const theme = THEMES[hotel] ?? { hue: hash(hotel) % 360, view: "city", emblem: "arch" };
  const c = context(w, h, hash(src), theme);
  let body;
  if (base === "icon") body = icon(theme, w);
  else if (base.startsWith("logo-")) body = logo(theme, name, base === "logo-white", w, h);
  else {
    const scene = scenes[base.split("-")[0]];
    if (!scene) throw new Error(`${src}: no scene called "${base.split("-")[0]}" (scenes: ${Object.keys(scenes).join(", ")})`);
    body = scene(c, base);
  }
  const defs = c.store.defs.length ? `<defs>${c.store.defs.join("")}</defs>` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${defs}${body}</svg>\n`;
}

const images = collectImages();
let total = 0;
const tooBig = [];
for (const [src, info] of [...images].sort(([a], [b]) => a.localeCompare(b))) {
  const svg = draw(src, info);
  const out = join(OUT_DIR, src);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, svg);
  total += Buffer.byteLength(svg);
  if (Buffer.byteLength(svg) > MAX_BYTES) tooBig.push(`${src} (${Buffer.byteLength(svg)} bytes)`);
}
console.log(`wrote ${images.size} SVG files, ${(total / 1024).toFixed(1)} KB in all`);
if (tooBig.length) {
  console.error(`over ${MAX_BYTES} bytes:\n  ${tooBig.join("\n  ")}`);
  process.exitCode = 1;
}
