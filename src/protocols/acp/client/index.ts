// The client side of ACP's fs and terminal methods, on this machine: for `weft chat` and tests.

export { LocalFiles } from "./local-files.js";
export { LocalTerminals } from "./local-terminals.js";
