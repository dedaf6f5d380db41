// Public API of mcp-triage/capture: record MCP traffic as canonical records from a client, a server or a proxy.
export { recordingFetch, type RecordingFetch, type RecordingFetchOptions } from './recording-fetch.js';
export { withCallNote, currentCallNote, type CallNote } from './call-note.js';
export {
  recordingHandler,
  recordingMiddleware,
  createServerRecorder,
  type ServerRecorderOptions,
  type ExchangeTap,
} from './middleware.js';
export { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './proxy.js';
export { runRecord, type RecordArgs, type RecordIo } from './record-command.js';
export type { RecordOutput } from './sink.js';
