// What a tool call shows a person beyond its raw output: a diff, a terminal, some text, and the
// files it touches. Plain data, independent of any protocol.

/** Something a tool wants shown while or after it runs. */
export type ToolDisplay =
  | { type: "text"; text: string }
  /** `oldText` null: the file is new. Paths are absolute. */
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  | { type: "terminal"; terminalId: string };

/** A file a tool call touches, for editors that follow along. Paths are absolute; lines 1-based. */
export interface ToolLocation {
  path: string;
  line?: number | undefined;
}
