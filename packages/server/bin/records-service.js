#!/usr/bin/env node
// Thin shim so the bin exists before dist/ is built (npm links bins at install time).
import "../dist/cli.js";
