// The header weft puts on a model call it makes beside a turn (such as one asking for a session's
// title), so that a proxy, a log or a test's fake model server can tell it from the turn's own calls.

/** The header's name; its value says what the call is for (`title`). */
export const SIDE_CALL_HEADER = "x-weft-side-call";
