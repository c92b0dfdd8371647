// The error for a question whose answer schema asks for a secret: weft never asks one with a form
// (ACP forbids it) nor in words (the answer would be kept in the session and shown to the model).

import { WeftError } from "../../errors/weft-error.js";

/**
 * A question's schema has a field that asks for a secret (see the rule in form-schema.ts). The turn
 * fails with it, so whoever wrote the question learns why it was never asked.
 */
export class SecretInFormError extends WeftError {
  static override readonly errorName = "SecretInFormError";

  constructor(
    /** The interrupt that asked. */
    readonly interruptId: string,
    /** The field that looks like a secret. */
    readonly field: string,
    reason: string,
  ) {
    super(
      "secret_in_form",
      `The question ${interruptId} was not asked: its answer schema asks for a secret (${reason}). Forms and chat messages must not collect secrets; rename the field if it is not one.`,
    );
  }
}
