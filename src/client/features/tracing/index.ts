export { startTracing } from './browser-tracing.ts';
