// The command's logger: lines on stderr (stdout belongs to the protocol), filtered by WEFT_LOG.

import type { Logger } from "../types/logger.js";

export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function stderrLogger(level: LogLevel): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const line = (name: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(name) <= rank) {
      process.stderr.write(`weft ${name}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}\n`);
    }
  };
  return { error: line("error"), warn: line("warn"), info: line("info"), debug: line("debug") };
}
