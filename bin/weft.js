#!/usr/bin/env node
// The `weft` command. The compiled CLI lives in dist/ (built by `npm install`).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
