// Limits on one line of ACP input, checked on the raw bytes before anything parses the line: its
// length, and how deeply its arrays and objects nest. A line over either limit is neither parsed nor
// kept: the scan goes on to the next newline in constant memory, noting only what the line's top
// level says (its `jsonrpc`, `id` and `method`), so that the line can still be answered.
//
// It is one file, longer than the others, because it is one job: LineScanner is a single state
// machine over the bytes of a line, and its states, the byte codes and the top-level fields it
// notes change together. Split, each piece would need the others' private state to read.

/** How long and how deeply nested one line of input may be. */
export interface LineLimits {
  /** The longest line read, in bytes, not counting its newline. */
  maxBytes: number;
  /** The deepest nesting of arrays and objects in a line: `{"a":[1]}` nests 2 deep. */
  maxDepth: number;
}

/**
 * Far above any real ACP message: a prompt's blocks nest about 6 deep, and a prompt's size is
 * limited separately (`maxPromptBytes`, 16 MiB by default). JSON.stringify itself overflows the
 * stack somewhere between 1,000 and 5,000 levels.
 */
export const DEFAULT_LINE_LIMITS: Readonly<LineLimits> = { maxBytes: 64 * 1024 * 1024, maxDepth: 128 };

/** A line within the limits: its bytes, with its newline if it had one. */
export interface AcceptedLine {
  kind: "accepted";
  bytes: Uint8Array;
  /** The raw JSON text of its top-level `id`, when it showed a short scalar one. */
  id?: string | undefined;
}

/** A line over a limit, described by what its top level showed. */
export interface RefusedLine {
  kind: "refused";
  reason: "too_long" | "too_deep";
  /**
   * `object` when the line looked like one JSON object at its top level (its members were well
   * formed and it ended where it should; what is nested inside is not checked), `blank` when it was
   * only whitespace, `malformed` when it cannot be JSON, `other` for an array or a scalar.
   */
  shape: "object" | "blank" | "malformed" | "other";
  /**
   * The members of the top-level object that JSON-RPC framing needs (`jsonrpc`, `id`, `method`,
   * `result`, `error`), by name: the raw JSON text of a short scalar value, or `null` for an
   * object, an array or a long value. As with JSON.parse, the last of repeated names counts.
   */
  members: ReadonlyMap<string, string | null>;
}

export type ScannedLine = AcceptedLine | RefusedLine;

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const TRACKED = new Set(["jsonrpc", "id", "method", "result", "error"]);
/** The longest key kept: longer ones are none of the tracked names, however escaped. */
const MAX_KEY_BYTES = 256;
/** The longest value of a tracked member kept: an id echoed in an answer can be this long. */
const MAX_VALUE_BYTES = 64 * 1024;

// Where the scan is in the top-level object's members (only tracked at depth 1 of an object).
const NOT_IN_OBJECT = 0;
const BEFORE_FIRST_KEY = 1;
const BEFORE_KEY = 2;
const IN_KEY = 3;
const BEFORE_COLON = 4;
const BEFORE_VALUE = 5;
const IN_STRING_VALUE = 6;
const IN_BARE_VALUE = 7;
const IN_NESTED_VALUE = 8;
const AFTER_VALUE = 9;

/**
 * Splits a byte stream into lines at each newline and holds every line to the limits. `push`
 * returns the lines a chunk completes, in order; `end` returns the last line if it had no newline.
 */
export class LineScanner {
  private readonly limits: LineLimits;
  // Keeps a byte order mark: one outside the value is looked at as the character it is.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  // The current line.
  private parts: Uint8Array[] = [];
  private bytes = 0;
  private refused: RefusedLine["reason"] | undefined;
  private depth = 0;
  private inString = false;
  private escaped = false;
  // Its top level.
  private top: "none" | "object" | "other" = "none";
  private closed = false;
  private malformed = false;
  private member = NOT_IN_OBJECT;
  private capture: number[] | undefined;
  private captureOverflow = false;
  private captureLimit = 0;
  // A multi-byte character outside the top-level value, as far as it has come.
  private outside: number[] = [];
  private outsideLength = 0;
  private key: string | undefined;
  private members = new Map<string, string | null>();

  constructor(limits: Partial<LineLimits> = {}) {
    this.limits = { ...DEFAULT_LINE_LIMITS, ...limits };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new RangeError(`The line limit ${name} must be a positive integer, not ${String(value)}.`);
      }
    }
  }

  push(chunk: Uint8Array): ScannedLine[] {
    const lines: ScannedLine[] = [];
    let start = 0;
    while (start < chunk.length) {
      const stop = this.scan(chunk, start);
      this.count(stop - start);
      if (stop === chunk.length) {
        if (this.refused === undefined) {
          this.parts.push(chunk.subarray(start, stop));
        }
        break;
      }
      lines.push(this.finish(chunk.subarray(start, stop + 1)));
      start = stop + 1;
    }
    return lines;
  }

  end(): ScannedLine | undefined {
    if (this.bytes === 0) {
      return undefined;
    }
    return this.finish(new Uint8Array(0));
  }

  /** Scans from `start` to the next newline (or the chunk's end) and returns where it stopped. */
  private scan(chunk: Uint8Array, start: number): number {
    const length = chunk.length;
    const maxDepth = this.limits.maxDepth;
    let index = start;
    while (index < length) {
      const byte = chunk[index] as number;
      if (byte === NEWLINE) {
        return index;
      }
      // The bulk of a message is below its top level, where only strings and nesting matter: a
      // tight loop on locals. Everything at the top level goes through the member tracking below.
      let depth = this.depth;
      if (depth >= 2 || (depth === 1 && this.top !== "object")) {
        let inString = this.inString;
        let escaped = this.escaped;
        while (index < length) {
          const next = chunk[index] as number;
          if (next === NEWLINE) {
            break;
          }
          if (inString) {
            if (escaped) {
              escaped = false;
            } else if (next === BACKSLASH) {
              escaped = true;
            } else if (next === QUOTE) {
              inString = false;
            }
          } else if (next === QUOTE) {
            inString = true;
          } else if (next === OPEN_BRACE || next === OPEN_BRACKET) {
            depth += 1;
            if (depth > maxDepth && this.refused === undefined) {
              this.refuse("too_deep");
            }
          } else if (next === CLOSE_BRACE || next === CLOSE_BRACKET) {
            if (depth <= 2) {
              break;
            }
            depth -= 1;
          }
          index += 1;
        }
        this.depth = depth;
        this.inString = inString;
        this.escaped = escaped;
        if (index === length || chunk[index] === NEWLINE) {
          continue;
        }
        // A bracket that closes a top-level member's value, or the top-level array itself.
        this.structureByte(chunk[index] as number);
        index += 1;
        continue;
      }
      if (this.inString) {
        if (this.capture === undefined && !this.escaped) {
          // A top-level string too long to keep.
          while (index < length) {
            const next = chunk[index] as number;
            if (next === QUOTE || next === BACKSLASH || next === NEWLINE) {
              break;
            }
            index += 1;
          }
          if (index === length || chunk[index] === NEWLINE) {
            continue;
          }
        }
        this.stringByte(chunk[index] as number);
      } else {
        this.structureByte(byte);
      }
      index += 1;
    }
    return index;
  }

  private stringByte(byte: number): void {
    this.captureByte(byte);
    if (this.escaped) {
      this.escaped = false;
    } else if (byte === BACKSLASH) {
      this.escaped = true;
    } else if (byte === QUOTE) {
      this.inString = false;
      if (this.member === IN_KEY) {
        this.endKey();
      } else if (this.member === IN_STRING_VALUE) {
        this.endValue(this.takeCapture());
      }
    }
  }

  private structureByte(byte: number): void {
    if (this.outside.length > 0 && (byte < 0x80 || byte >= 0xc0)) {
      // A character cut short before this byte: not whitespace.
      this.outside = [];
      this.startTopLevel("other");
    }
    const topObjectMember = this.depth === 1 && this.top === "object";
    if (this.member === IN_BARE_VALUE && topObjectMember) {
      if (isBareTokenByte(byte)) {
        this.captureByte(byte);
        return;
      }
      this.endValue(this.takeCapture());
    }
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 0) {
          this.startTopLevel("other");
        } else if (topObjectMember) {
          if (this.member === BEFORE_FIRST_KEY || this.member === BEFORE_KEY) {
            this.member = IN_KEY;
            this.startCapture(MAX_KEY_BYTES);
          } else if (this.member === BEFORE_VALUE) {
            this.member = IN_STRING_VALUE;
            // Only a tracked member's value is kept; the rest of its strings take the fast path.
            if (this.key !== undefined && TRACKED.has(this.key)) {
              this.startCapture(MAX_VALUE_BYTES);
            }
          } else {
            this.malformed = true;
            return;
          }
          this.captureByte(byte);
        }
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth += 1;
        if (this.depth > this.limits.maxDepth && this.refused === undefined) {
          this.refuse("too_deep");
        }
        if (this.depth === 1) {
          this.startTopLevel(byte === OPEN_BRACE ? "object" : "other");
          if (this.top === "object" && !this.closed) {
            this.member = BEFORE_FIRST_KEY;
          }
        } else if (this.depth === 2 && this.top === "object") {
          if (this.member === BEFORE_VALUE) {
            this.endValue(null);
            this.member = IN_NESTED_VALUE;
          } else {
            this.malformed = true;
          }
        }
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (this.depth === 0) {
          this.malformed = true;
          return;
        }
        if (topObjectMember) {
          if (byte !== CLOSE_BRACE || (this.member !== BEFORE_FIRST_KEY && this.member !== AFTER_VALUE)) {
            this.malformed = true;
          }
          this.member = NOT_IN_OBJECT;
        }
        this.depth -= 1;
        if (this.depth === 0) {
          this.closed = true;
        } else if (this.depth === 1 && this.top === "object" && this.member === IN_NESTED_VALUE) {
          this.member = AFTER_VALUE;
        }
        return;
      case COLON:
        this.separator(topObjectMember, BEFORE_COLON, BEFORE_VALUE);
        return;
      case COMMA:
        this.separator(topObjectMember, AFTER_VALUE, BEFORE_KEY);
        return;
      case 0x20:
      case 0x09:
      case 0x0d:
        return;
      default:
        if (this.depth === 0) {
          this.outsideByte(byte);
        } else if (topObjectMember) {
          if (this.member === BEFORE_VALUE && isBareTokenByte(byte)) {
            this.member = IN_BARE_VALUE;
            this.startCapture(MAX_KEY_BYTES);
            this.captureByte(byte);
          } else {
            this.malformed = true;
          }
        }
    }
  }

  /**
   * A colon or a comma. Among the top object's members it belongs only where the member is at
   * `from`, and moves it to `to`; elsewhere there, or outside every value, the line is malformed.
   */
  private separator(topObjectMember: boolean, from: number, to: number): void {
    if (topObjectMember) {
      if (this.member === from) {
        this.member = to;
      } else {
        this.malformed = true;
      }
    } else if (this.depth === 0) {
      this.malformed = true;
    }
  }

  /**
   * A byte outside the top-level value that is not JSON whitespace. The SDK trims the line as
   * JavaScript trims a string, so a byte order mark, a no-break space or any other Unicode space
   * there is whitespace too; anything else is the start of a value, or after it, garbage.
   */
  private outsideByte(byte: number): void {
    if (byte === 0x0b || byte === 0x0c) {
      return;
    }
    if (byte < 0x80) {
      this.startTopLevel("other");
      return;
    }
    if (byte >= 0xc0) {
      this.outside = [byte];
      this.outsideLength = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return;
    }
    this.outside.push(byte);
    if (this.outside.length === 1) {
      // A continuation byte with no lead byte.
      this.outside = [];
      this.startTopLevel("other");
    } else if (this.outside.length === this.outsideLength) {
      const character = this.decoder.decode(Uint8Array.from(this.outside));
      this.outside = [];
      if (!/^\s$/u.test(character)) {
        this.startTopLevel("other");
      }
    }
  }

  private startTopLevel(kind: "object" | "other"): void {
    if (this.top === "none") {
      this.top = kind;
    } else if (this.closed || kind === "object") {
      this.malformed = true;
    }
  }

  private startCapture(limit: number): void {
    this.capture = [];
    this.captureLimit = limit;
    this.captureOverflow = false;
  }

  private captureByte(byte: number): void {
    if (this.capture === undefined) {
      return;
    }
    if (this.capture.length < this.captureLimit) {
      this.capture.push(byte);
    } else {
      // Too long to be an id or a method name: the rest of it takes the fast path.
      this.capture = undefined;
      this.captureOverflow = true;
    }
  }

  private takeCapture(): string | null {
    const captured = this.capture;
    this.capture = undefined;
    if (captured === undefined || this.captureOverflow) {
      return null;
    }
    return this.decoder.decode(Uint8Array.from(captured));
  }

  private endKey(): void {
    const raw = this.takeCapture();
    this.member = BEFORE_COLON;
    if (raw === null) {
      this.key = undefined;
      return;
    }
    try {
      this.key = JSON.parse(raw) as string;
    } catch {
      this.malformed = true;
      this.key = undefined;
    }
  }

  private endValue(raw: string | null): void {
    this.member = AFTER_VALUE;
    if (this.key !== undefined && TRACKED.has(this.key)) {
      this.members.set(this.key, raw);
    }
    this.key = undefined;
  }

  private refuse(reason: RefusedLine["reason"]): void {
    this.refused = reason;
    this.parts = [];
  }

  private count(bytes: number): void {
    this.bytes += bytes;
    if (this.refused === undefined && this.bytes > this.limits.maxBytes) {
      this.refuse("too_long");
    }
  }

  /** Ends the current line: `tail` is its bytes in the last chunk, with the newline if any. */
  private finish(tail: Uint8Array): ScannedLine {
    let line: ScannedLine;
    if (this.refused === undefined) {
      const first = this.parts[0];
      let bytes: Uint8Array;
      if (first === undefined) {
        bytes = tail;
      } else if (this.parts.length === 1 && tail.length === 0) {
        bytes = first;
      } else {
        bytes = concat([...this.parts, tail]);
      }
      line = { kind: "accepted", bytes };
      const id = this.members.get("id");
      if (typeof id === "string") {
        line.id = id;
      }
    } else {
      if (this.member === IN_BARE_VALUE && this.depth === 1) {
        this.endValue(this.takeCapture());
      }
      if (this.outside.length > 0) {
        this.startTopLevel("other");
      }
      let shape: RefusedLine["shape"];
      if (this.top === "none") {
        shape = "blank";
      } else if (this.malformed || this.inString || this.depth !== 0 || (this.top === "object" && !this.closed)) {
        shape = "malformed";
      } else {
        shape = this.top;
      }
      line = { kind: "refused", reason: this.refused, shape, members: this.members };
    }
    this.reset();
    return line;
  }

  private reset(): void {
    this.parts = [];
    this.bytes = 0;
    this.refused = undefined;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.top = "none";
    this.closed = false;
    this.malformed = false;
    this.member = NOT_IN_OBJECT;
    this.capture = undefined;
    this.captureOverflow = false;
    this.key = undefined;
    this.members = new Map();
    this.outside = [];
  }
}

/** The bytes of a number, `true`, `false` or `null`. */
function isBareTokenByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || byte === 0x2d || byte === 0x2b || byte === 0x2e;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) {
    length += part.length;
  }
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
