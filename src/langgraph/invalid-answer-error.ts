// The answer to a question did not fit what the question asks for. A resume value function (see
// ResumeValue) throws it; the person is shown its message and asked the same question again.

import { WeftError } from "../errors/weft-error.js";

/** An answer the question's schema refuses; its message says why, and how to answer, for the person. */
export class InvalidAnswerError extends WeftError {
  static override readonly errorName = "InvalidAnswerError";

  constructor(
    /** The question's interrupt id, as weft names it. */
    readonly interruptId: string,
    message: string,
  ) {
    super("invalid_answer", message);
  }
}
