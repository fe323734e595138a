// Preloaded into serve and worker processes by test/ops/observe.test.ts (NODE_OPTIONS=--import):
// on SIGUSR2 the process emits a warning, as a library's deprecation notice would.
process.on('SIGUSR2', () => process.emitWarning('probe warning', { code: 'PROBE_WARNING' }));
