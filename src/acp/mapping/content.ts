// Prompt content: ACP content blocks become the user's message, and a kept message becomes blocks
// again when a session is replayed. Audio reaches the model for the turn it came with; the
// conversation keeps only a note of it, not its bytes.

import type { ContentBlock, EmbeddedResourceResource, ResourceLink } from "@agentclientprotocol/sdk";

import { createMessageId } from "../../graph/messages.js";
import type { UserMessage, UserPart } from "../../types/messages.js";
import type { AcpContentBlock } from "../record/content-block.js";

export type { AcpContentBlock } from "../record/content-block.js";

/** A prompt block from the wire as `input` and the session's turn record keep it. Fields the wire left null are left out. */
export function toAcpContentBlock(block: ContentBlock): AcpContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image": {
      const image: AcpContentBlock = { type: "image", data: block.data, mimeType: block.mimeType };
      if (typeof block.uri === "string") {
        image.uri = block.uri;
      }
      return image;
    }
    case "audio":
      return { type: "audio", data: block.data, mimeType: block.mimeType };
    case "resource_link": {
      const link: AcpContentBlock = { type: "resource_link", uri: block.uri, name: block.name };
      if (typeof block.title === "string") {
        link.title = block.title;
      }
      if (typeof block.mimeType === "string") {
        link.mimeType = block.mimeType;
      }
      return link;
    }
    case "resource": {
      const given = block.resource;
      const resource: NonNullable<AcpContentBlock["resource"]> = { uri: given.uri };
      if (typeof given.mimeType === "string") {
        resource.mimeType = given.mimeType;
      }
      if ("text" in given) {
        resource.text = given.text;
      } else {
        resource.blob = given.blob;
      }
      return { type: "resource", resource };
    }
  }
}

export interface PromptMessage {
  /** What the model gets this turn. */
  forModel: UserMessage;
  /** What the conversation keeps (audio as a note). */
  forHistory: UserMessage;
  /** The prompt's text: its text blocks, joined. */
  text: string;
}

/** Turns a prompt's blocks into the user's message. Blocks of kinds we do not read become a note. */
export function promptToMessage(blocks: readonly AcpContentBlock[]): PromptMessage {
  const forModel: UserPart[] = [];
  const forHistory: UserPart[] = [];
  const texts: string[] = [];
  for (const block of blocks) {
    const part = blockToPart(block);
    forModel.push(part);
    if (part.type === "audio") {
      forHistory.push({ type: "text", text: audioNote(block) });
    } else {
      forHistory.push(part);
    }
    if (block.type === "text" && typeof block.text === "string") {
      texts.push(block.text);
    }
  }
  const id = createMessageId("user");
  const createdAt = new Date().toISOString();
  return {
    forModel: { id, role: "user", parts: forModel, createdAt },
    forHistory: { id, role: "user", parts: forHistory, createdAt },
    text: texts.join("\n"),
  };
}

function blockToPart(block: AcpContentBlock): UserPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "image":
    case "audio": {
      // No model takes an "image" that says it is something else, or one without bytes: say so
      // instead of sending it, so the turn (and every later one) does not fail on it.
      const kind = block.type;
      const mediaType = block.mimeType ?? (kind === "image" ? "image/png" : "audio/wav");
      const data = block.data || (typeof block.uri === "string" && /^https?:/.test(block.uri) ? block.uri : "");
      if (!mediaType.startsWith(`${kind}/`) || !data) {
        const what = kind === "image" ? "an image" : "an audio clip";
        const problem = data ? `its type, ${mediaType}, is not an ${kind} type` : "it had no data";
        return { type: "text", text: `[The editor attached ${what} here that was not sent to the model: ${problem}.]` };
      }
      return { type: kind, data, mediaType };
    }
    case "resource": {
      const resource = block.resource ?? { uri: "" };
      const part: UserPart = { type: "file", uri: resource.uri };
      if (resource.mimeType) {
        part.mediaType = resource.mimeType;
      }
      if (typeof resource.text === "string") {
        part.text = resource.text;
      } else if (typeof resource.blob === "string") {
        part.data = resource.blob;
      }
      return part;
    }
    case "resource_link": {
      const part: UserPart = { type: "link", uri: block.uri ?? "", name: block.name ?? block.uri ?? "" };
      if (typeof block.title === "string") {
        part.title = block.title;
      }
      if (typeof block.mimeType === "string") {
        part.mediaType = block.mimeType;
      }
      return part;
    }
    default:
      return { type: "text", text: `[The editor sent a "${block.type}" block, which this agent does not read.]` };
  }
}

function audioNote(block: AcpContentBlock): string {
  const bytes = Math.floor(((block.data ?? "").length * 3) / 4);
  return `[Audio clip (${block.mimeType ?? "audio"}, ${formatBytes(bytes)}) was heard in this turn; its recording is not kept.]`;
}

/** A size as people read it: "12 KB", "3.4 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** ACP content for one kept user part, for replay. */
export function partToBlock(part: UserPart): ContentBlock {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return { type: "image", data: part.data, mimeType: part.mediaType };
    case "audio":
      return { type: "audio", data: part.data, mimeType: part.mediaType };
    case "file": {
      const mimeType = part.mediaType ? { mimeType: part.mediaType } : {};
      const resource: EmbeddedResourceResource = part.text !== undefined ? { uri: part.uri, ...mimeType, text: part.text } : { uri: part.uri, ...mimeType, blob: part.data ?? "" };
      return { type: "resource", resource };
    }
    case "link": {
      const block: ResourceLink & { type: "resource_link" } = { type: "resource_link", uri: part.uri, name: part.name };
      if (part.title) {
        block.title = part.title;
      }
      if (part.mediaType) {
        block.mimeType = part.mediaType;
      }
      return block;
    }
  }
}
