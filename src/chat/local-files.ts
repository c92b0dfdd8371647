// The client side of ACP's fs methods, on this machine's disk within one root: what `weft chat`
// answers when an agent asks to read or write a file through the "editor".

import type * as acp from "@agentclientprotocol/sdk";

import { readChecked, writeChecked } from "../files/disk-files.js";
import { resolveOnDisk } from "../files/session-paths.js";

export class LocalFiles {
  constructor(private readonly root: string) {}

  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const path = await resolveOnDisk(this.root, params.path);
    let content = await readChecked(path);
    if (content === undefined) {
      throw new Error(`${params.path} does not exist.`);
    }
    if (params.line !== undefined && params.line !== null) {
      const lines = content.split("\n");
      const first = Math.max(0, params.line - 1);
      content = lines.slice(first, params.limit ? first + params.limit : undefined).join("\n");
    } else if (params.limit) {
      content = content.split("\n").slice(0, params.limit).join("\n");
    }
    return { content };
  }

  async write(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    const path = await resolveOnDisk(this.root, params.path);
    await writeChecked(path, params.content);
    return {};
  }
}
