// The text of a message's content as LangChain and the model APIs write it: a string, or a list of
// blocks, some of which hold text. Which blocks count is the reader's to say (LangChain's `text`
// blocks and bare strings; a provider's `input_text`, `output_text`…), so each passes its own.

/** `content`'s text: the string itself, or what `blockText` reads from each of its blocks, joined; "" for anything else. */
export function contentText(content: unknown, blockText: (block: unknown) => string = textField): string {
  if (typeof content === "string") {
    return content;
  }
  if (!Array.isArray(content)) {
    return "";
  }
  return content.map((block: unknown) => blockText(block)).join("");
}

/** A block's `text`, whatever its type, when it is an object with one that is a string; else "". */
export function textField(block: unknown): string {
  return typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string" ? (block as { text: string }).text : "";
}
