// Prompt blocks as the model and the conversation get them, including blocks no model could take.

import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { formatBytes, partToBlock, promptToMessage, toAcpContentBlock } from "./content.js";

describe("promptToMessage", () => {
  it("sends images and audio as they are", () => {
    const { forModel } = promptToMessage([
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    ]);
    expect(forModel.parts).toEqual([
      { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
      { type: "audio", data: "UklGRg==", mediaType: "audio/wav" },
    ]);
  });

  it("sends a note instead of an image or audio block whose type is not an image or audio type, or that has no data", () => {
    const { forModel, forHistory } = promptToMessage([
      { type: "text", text: "look" },
      { type: "image", data: "aGVsbG8=", mimeType: "application/x-foo" },
      { type: "audio", data: "aGVsbG8=", mimeType: "text/plain" },
      { type: "image", data: "", mimeType: "image/png" },
    ]);
    expect(forModel.parts).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "[The editor attached an image here that was not sent to the model: its type, application/x-foo, is not an image type.]" },
      { type: "text", text: "[The editor attached an audio clip here that was not sent to the model: its type, text/plain, is not an audio type.]" },
      { type: "text", text: "[The editor attached an image here that was not sent to the model: it had no data.]" },
    ]);
    expect(forHistory.parts).toEqual(forModel.parts);
  });

  it("takes an image given by an http URL instead of bytes", () => {
    const { forModel } = promptToMessage([{ type: "image", data: "", uri: "https://example.com/cat.png", mimeType: "image/png" }]);
    expect(forModel.parts).toEqual([{ type: "image", data: "https://example.com/cat.png", mediaType: "image/png" }]);
  });

  it("keeps embedded files and links, joins the text blocks as the prompt's text, and keeps audio only as a note", () => {
    const message = promptToMessage([
      { type: "text", text: "read" },
      { type: "resource", resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA" } },
      { type: "resource_link", uri: "file:///c.ts", name: "c.ts", title: "The C file", mimeType: "text/x-typescript" },
      { type: "audio", data: "A".repeat(4096), mimeType: "audio/wav" },
      { type: "text", text: "and listen" },
    ]);
    expect(message.text).toBe("read\nand listen");
    expect(message.forModel.parts).toEqual([
      { type: "text", text: "read" },
      { type: "file", uri: "file:///a.md", mediaType: "text/markdown", text: "# A" },
      { type: "file", uri: "file:///b.bin", data: "AAAA" },
      { type: "link", uri: "file:///c.ts", name: "c.ts", title: "The C file", mediaType: "text/x-typescript" },
      { type: "audio", data: "A".repeat(4096), mediaType: "audio/wav" },
      { type: "text", text: "and listen" },
    ]);
    expect(message.forHistory.parts[4]).toEqual({ type: "text", text: "[Audio clip (audio/wav, 3 KB) was heard in this turn; its recording is not kept.]" });
    expect(message.forHistory.id).toBe(message.forModel.id);
  });

  it("fills in what a block left out: an image's type, a link's name, a missing text or file, the type in an audio note", () => {
    const message = promptToMessage([
      { type: "image", data: "iVBORw0KGgo=" },
      { type: "text" },
      { type: "resource_link", uri: "file:///c.ts" },
      { type: "resource" },
      { type: "audio", data: "UklGRg==" },
    ]);
    expect(message.forModel.parts).toEqual([
      { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
      { type: "text", text: "" },
      { type: "link", uri: "file:///c.ts", name: "file:///c.ts" },
      { type: "file", uri: "" },
      { type: "audio", data: "UklGRg==", mediaType: "audio/wav" },
    ]);
    expect(message.forHistory.parts[4]).toEqual({ type: "text", text: "[Audio clip (audio, 1 KB) was heard in this turn; its recording is not kept.]" });
    expect(message.text).toBe("");
  });

  it("takes an image's URL only when it is http(s), and else says the image had no data", () => {
    expect(promptToMessage([{ type: "image", data: "", uri: "file:///cat.png", mimeType: "image/png" }]).forModel.parts).toEqual([
      { type: "text", text: "[The editor attached an image here that was not sent to the model: it had no data.]" },
    ]);
  });

  it("says so instead of sending a block of a kind it does not read", () => {
    expect(promptToMessage([{ type: "video", uri: "file:///v.mp4" }]).forModel.parts).toEqual([{ type: "text", text: '[The editor sent a "video" block, which this agent does not read.]' }]);
  });
});

describe("toAcpContentBlock", () => {
  it("takes each of the wire's blocks as it is, leaving out what the wire left null", () => {
    const wire: acp.ContentBlock[] = [
      { type: "text", text: "hi", annotations: null },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png", uri: null },
      { type: "image", data: "", mimeType: "image/png", uri: "https://example.com/cat.png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///c.ts", name: "c.ts", title: null, mimeType: "text/x-typescript", size: 10 },
      { type: "resource", resource: { uri: "file:///a.md", text: "# A", mimeType: null } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/octet-stream" } },
    ];
    expect(wire.map(toAcpContentBlock)).toEqual([
      { type: "text", text: "hi" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "image", data: "", mimeType: "image/png", uri: "https://example.com/cat.png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///c.ts", name: "c.ts", mimeType: "text/x-typescript" },
      { type: "resource", resource: { uri: "file:///a.md", text: "# A" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/octet-stream" } },
    ]);
    expect(Object.keys(toAcpContentBlock({ type: "image", data: "x", mimeType: "image/png", uri: null }))).toEqual(["type", "data", "mimeType"]);
  });

  it("gives the prompt the same message the wire's blocks meant", () => {
    const wire: acp.ContentBlock[] = [
      { type: "text", text: "see" },
      { type: "resource_link", uri: "file:///c.ts", name: "c.ts", title: "C" },
    ];
    expect(promptToMessage(wire.map(toAcpContentBlock)).forModel.parts).toEqual([
      { type: "text", text: "see" },
      { type: "link", uri: "file:///c.ts", name: "c.ts", title: "C" },
    ]);
  });
});

describe("partToBlock", () => {
  it("gives each kept part back as the block that replays it", () => {
    expect(
      [
        partToBlock({ type: "text", text: "hi" }),
        partToBlock({ type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" }),
        partToBlock({ type: "audio", data: "UklGRg==", mediaType: "audio/wav" }),
        partToBlock({ type: "file", uri: "file:///a.md", mediaType: "text/markdown", text: "# A" }),
        partToBlock({ type: "file", uri: "file:///b.bin", data: "AAAA" }),
        partToBlock({ type: "file", uri: "file:///empty" }),
        partToBlock({ type: "link", uri: "file:///c.ts", name: "c.ts" }),
        partToBlock({ type: "link", uri: "file:///d.ts", name: "d.ts", title: "D", mediaType: "text/x-typescript" }),
      ],
    ).toEqual([
      { type: "text", text: "hi" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA" } },
      { type: "resource", resource: { uri: "file:///empty", blob: "" } },
      { type: "resource_link", uri: "file:///c.ts", name: "c.ts" },
      { type: "resource_link", uri: "file:///d.ts", name: "d.ts", title: "D", mimeType: "text/x-typescript" },
    ]);
  });
});

describe("formatBytes", () => {
  it("says sizes as people read them", () => {
    expect([formatBytes(0), formatBytes(1500), formatBytes(12 * 1024), formatBytes(3.4 * 1024 * 1024)]).toEqual(["1 KB", "1 KB", "12 KB", "3.4 MB"]);
  });
});
