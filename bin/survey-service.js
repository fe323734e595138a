#!/usr/bin/env node
// The package's command: runs the compiled CLI (npm install builds dist/ through the prepare script).
import '../dist/main.js';
