// Runs LangGraph's checkpointer conformance suite (@langchain/langgraph-checkpoint-validation) in
// a vitest file. Its specs call vitest's describe/it/expect as globals, and our config does not
// turn globals on; so a file that runs it assigns them here, for that file's context only.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";

export interface SaverUnderTest<T extends BaseCheckpointSaver> {
  name: string;
  create(): Promise<T>;
  destroy?(saver: T): Promise<void>;
}

/** Registers the whole suite (and the delta-channel history specs `validate` leaves out) for one saver. */
export function validateSaver<T extends BaseCheckpointSaver>(saver: SaverUnderTest<T>): void {
  Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test });
  const initializer = {
    checkpointerName: saver.name,
    createCheckpointer: () => saver.create(),
    destroyCheckpointer: (checkpointer: T) => saver.destroy?.(checkpointer),
  };
  validate(initializer);
  describe(`${saver.name} delta channel history`, () => deltaChannelHistoryTests(initializer));
}
