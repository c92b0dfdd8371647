// A prompt block as a session keeps it: the turn record holds the blocks of the prompt it runs,
// and mapping/content.ts makes them from the wire's blocks and back.

/**
 * One block of a prompt: text, an image, audio, a file the editor embedded, or a link to one. A
 * plainer shape than the SDK's ContentBlock, for `input` to read without narrowing; the wire's
 * blocks become these once, as a prompt arrives (toAcpContentBlock).
 */
export interface AcpContentBlock {
  /** `text`, `image`, `audio`, `resource`, `resource_link`, or a kind this agent does not read. */
  type: string;
  /** A text block's text. */
  text?: string | undefined;
  /** An image or audio block's bytes, as base64. */
  data?: string | undefined;
  /** An image or audio block's media type, such as `image/png` or `audio/wav`. */
  mimeType?: string | undefined;
  /** A link's URI. */
  uri?: string | undefined;
  /** A link's name. */
  name?: string | undefined;
  /** A link's title. */
  title?: string | undefined;
  /** An embedded file: its text, or its bytes as base64 (`blob`). */
  resource?: { uri: string; text?: string | undefined; mimeType?: string | undefined; blob?: string | undefined } | undefined;
}
