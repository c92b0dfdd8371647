// Prompt blocks as the model and the conversation get them, including blocks no model could take.

import { describe, expect, it } from "vitest";

import { promptToMessage } from "./content.js";

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
});
