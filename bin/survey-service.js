#!/usr/bin/env node
// The package's command: runs the compiled CLI (a packed package ships dist/; a checkout builds it
// through the prepare script).
import '../dist/main.js';
