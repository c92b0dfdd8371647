// `weft chat --url` against the real `weft serve`, killed (SIGKILL) in the middle of a turn and
// started again on the same port and store: the chat reconnects, reloads the session, and shows
// the rest of the cut turn, as `--resume` would.

import { once } from "node:events";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, it } from "vitest";

import { cleanupsAfterEach } from "../../test/support/cleanups.js";
import { lastUserText as lastUser } from "../../test/support/model-requests.js";
import { PtyProcess } from "../../test/support/pty.js";
import { chatCommand, leaveChat } from "../../test/support/pty-chat.js";
import { startWeftServe } from "../../test/support/weft-serve.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

const cleanups = cleanupsAfterEach();

describe("weft chat --url when weft serve restarts mid-turn", () => {
  it("reconnects, reloads the session and shows the rest of the cut turn", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-chat-reconnect-")));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    let first = true;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const model = await FakeModelServer.start((request) => {
      if (!request.tools?.length) {
        return { text: "A title" };
      }
      if (lastUser(request).includes("long story") && first) {
        // The first process: the reply starts, then hangs until the process is killed.
        return { text: ["Once upon ", "a time ", "never told"], beforeChunk: (index) => (index === 2 ? (reached(), new Promise<void>(() => undefined)) : undefined) };
      }
      return { text: `The whole story, told after "${lastUser(request)}".` };
    });
    cleanups.push(() => model.close());
    const env = { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: join(home, "sessions.db") };
    const server = await startWeftServe({ home, args: ["--root", home], env, cleanups });
    const port = new URL(server.url).port;

    const chat = new PtyProcess(chatCommand(home, `--url ${server.url}`), {
      env: { XDG_STATE_HOME: join(home, "chat-state"), NO_COLOR: "1", WEFT_TOKEN: "t-ann", WEFT_LOG: "silent" },
      columns: 120,
    });
    cleanups.push(() => chat.kill());
    await chat.waitFor(/you › $/);
    chat.type("tell me a long story\r");
    await held;
    await chat.waitFor(/weft › Once upon/);
    first = false;
    const gone = once(server.child, "exit");
    server.child.kill("SIGKILL");
    await gone;
    await chat.waitFor(/reconnecting…\)/);
    await startWeftServe({ home, args: ["--listen", `127.0.0.1:${port}`, "--root", home], env, cleanups });
    // The rest of the turn, once the session is loaded again; then the prompt.
    await chat.waitForScreen(/\(reconnected; session sess_\w+ reloaded\)\n[\s\S]*weft › The whole story, told after "tell me a long story"\.\n[\s\S]*you ›$/);
    chat.type("and then?\r");
    await chat.waitForScreen(/you › and then\?\n[\s\S]*weft › The whole story, told after "and then\?"\.\n[\s\S]*you ›$/);
    await leaveChat(chat);
  });
});
