// /init: has the model look at the project and write an AGENTS.md for agents working in it (or
// improve the one there is), as a prompt of its own.

import { PROJECT_INSTRUCTIONS_FILE } from "../project-instructions.js";
import type { AcpCommand } from "../../acp/surface/slash-commands.js";

/** The prompt /init runs. */
export const INIT_PROMPT = `Look at this project and write an ${PROJECT_INSTRUCTIONS_FILE} file at the top of the project directory, for coding agents that work in it. Read the README, the build and package files, and enough of the code to know the layout. In the file, say briefly: what the project is; how to build it, run its tests and check its style (the exact commands); how the code is laid out; and the conventions to follow that are not obvious from the code. Keep it short and specific to this project; leave out general advice. If ${PROJECT_INSTRUCTIONS_FILE} exists already, read it and improve it rather than starting over. When you are done, say in a sentence or two what you wrote.`;

export const initCommand: AcpCommand = {
  name: "init",
  description: `Writes an ${PROJECT_INSTRUCTIONS_FILE} that tells agents how to work in this project`,
  hint: "anything it should cover",
  run: ({ input }) => ({ prompt: input === "" ? INIT_PROMPT : `${INIT_PROMPT}\n\nAlso: ${input}` }),
};
