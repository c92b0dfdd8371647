// Summarises V8 CPU profiles (`node --cpu-prof`) of weft's runs: where the process spent its time,
// by part (module loading, the SDK, zod, the SQLite store, mapping, writing…) and by function,
// for the whole process and from the moment it started reading the session asked for. Frames in a
// bundle are mapped back to their source files through the bundle's source maps.

import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A frame as its source knows it. */
interface Place {
  name: string;
  source: string;
}

/** Which part of the program a source file belongs to, for the summary. Earlier rules win. */
const PARTS: Array<[string, RegExp]> = [
  ["garbage collection", /^\(garbage collector\)$/],
  ["idle (waiting for input)", /^\(idle\)$/],
  ["native, unattributed", /^\((program|root)\)$/],
  ["module loading", /^node:internal\/(modules|vm)|^node:internal\/process\/(esm_loader|execution)/],
  ["ACP SDK", /node_modules\/@agentclientprotocol\//],
  ["zod", /node_modules\/zod\//],
  ["SQLite store", /node_modules\/better-sqlite3\/|src\/stores\/sqlite\/|node:sqlite/],
  ["session store (record read)", /src\/acp\/(record\/(store-sessions|session-store)|session\/stored-session)\.ts|src\/stores\/(lazy-store|open-store|sql-rows)\.ts|src\/store-core\//],
  ["mapping (updates)", /src\/acp\/mapping\/(updates|content|tool-calls|replay[^/]*)\.ts/],
  ["serialising and writing", /src\/acp\/(wire\/(message-line|streams|line-limits)|session\/update-sink)\.ts|^node:internal\/(streams|webstreams|net|stream_base_commons|fs)|^node:(net|stream|tty)/],
  ["rest of weft", /src\//],
  ["other packages", /node_modules\//],
  ["node", /^node:/],
];

/**
 * A text summary of the profiles, their times averaged. `marker` names the source file whose first
 * sample starts the second part of the summary (by default the session store's read).
 */
export function summariseProfile(files: readonly string[], marker: RegExp = /src\/acp\/record\/store-sessions\.ts$/): string {
  const byPart = new Map<string, number>();
  const afterMarker = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byFunctionAfter = new Map<string, number>();
  let total = 0;
  let after = 0;
  const maps = new SourceMaps();
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) {
      for (const child of node.children ?? []) {
        parents.set(child, node.id);
      }
    }
    let marked = false;
    profile.samples.forEach((sampleId, index) => {
      const micros = profile.timeDeltas[index + 1] ?? 0;
      const leaf = nodes.get(sampleId);
      if (!leaf) {
        return;
      }
      if (!marked) {
        for (let id: number | undefined = sampleId; id !== undefined; id = parents.get(id)) {
          const frame = nodes.get(id)?.callFrame;
          if (frame && marker.test(maps.place(frame).source)) {
            marked = true;
            break;
          }
        }
      }
      const place = maps.place(leaf.callFrame);
      const part = partOf(place.source);
      total += micros;
      byPart.set(part, (byPart.get(part) ?? 0) + micros);
      const name = `${place.name} (${shortSource(place.source)})`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
      if (marked) {
        after += micros;
        afterMarker.set(part, (afterMarker.get(part) ?? 0) + micros);
        byFunctionAfter.set(name, (byFunctionAfter.get(name) ?? 0) + micros);
      }
    });
  }
  const runs = Math.max(1, files.length);
  const ms = (micros: number) => `${(micros / 1000 / runs).toFixed(1)} ms`;
  const table = (values: Map<string, number>, of: number, limit = Infinity) =>
    [...values]
      .sort((left, right) => right[1] - left[1])
      .slice(0, limit)
      .map(([name, micros]) => `  ${ms(micros).padStart(9)}  ${((micros / Math.max(1, of)) * 100).toFixed(0).padStart(3)}%  ${name}`)
      .join("\n");
  return [
    `Self time per run, average of ${files.length} profile(s): ${ms(total)} in all.`,
    "",
    "By part, whole process:",
    table(byPart, total),
    "",
    `By part, from the first read of the session on (${ms(after)}):`,
    table(afterMarker, after),
    "",
    "Top functions by self time, whole process:",
    table(byFunction, total, 25),
    "",
    "Top functions by self time, from the first read of the session on:",
    table(byFunctionAfter, after, 25),
    "",
  ].join("\n");
}

function partOf(source: string): string {
  for (const [part, pattern] of PARTS) {
    if (pattern.test(source)) {
      return part;
    }
  }
  return "other";
}

function shortSource(source: string): string {
  const modules = source.lastIndexOf("node_modules/");
  if (modules >= 0) {
    return source.slice(modules + "node_modules/".length);
  }
  const inSource = source.indexOf("src/");
  return inSource >= 0 ? source.slice(inSource) : source;
}

/** Source maps of bundled files, read once each: a frame's original file and name. */
class SourceMaps {
  private readonly maps = new Map<string, SourceMap | undefined>();

  place(frame: CallFrame): Place {
    const name = frame.functionName || "(anonymous)";
    if (!frame.url) {
      return { name, source: name.startsWith("(") ? name : "(native)" };
    }
    const map = this.mapOf(frame.url);
    if (!map) {
      return { name, source: frame.url.replace(/^file:\/\//, "") };
    }
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; name?: string };
    return { name: entry.name ?? name, source: entry.originalSource?.replace(/^file:\/\//, "") ?? frame.url };
  }

  private mapOf(url: string): SourceMap | undefined {
    if (!this.maps.has(url)) {
      let map: SourceMap | undefined;
      if (url.startsWith("file://")) {
        const path = `${fileURLToPath(url)}.map`;
        if (existsSync(path)) {
          map = new SourceMap(JSON.parse(readFileSync(path, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
        }
      }
      this.maps.set(url, map);
    }
    return this.maps.get(url);
  }
}
