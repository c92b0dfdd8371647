#!/usr/bin/env node
// The `weft` command. It runs the bundled CLI in dist/bundle (built by `npm install`), which loads
// little before an editor's `initialize` is answered.
import { main } from "../dist/bundle/main.js";

process.exitCode = await main(process.argv.slice(2));
