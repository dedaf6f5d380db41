// Unit tests for src/formats/describe.ts: the `mcp-triage formats` listing covers every registered format and its limits.
import { describe, expect, it } from 'vitest';
import { describeFormats } from '../../src/formats/describe.js';
import { ALL_FORMATS, JSON_FORMATS, TEXT_FORMATS, formatByName } from '../../src/formats/index.js';

describe('describeFormats', () => {
  const text = describeFormats();
  it('names every registered format, in detection order, with how it is detected', () => {
    let at = -1;
    for (const f of ALL_FORMATS) {
      const i = text.indexOf(`\n${f.name} (`);
      expect(i, f.name).toBeGreaterThan(at);
      at = i;
      expect(text.slice(i).split('\n\n')[0]).toMatch(/detected by:/);
    }
  });
  it('says what a limited source cannot show, and a full one does not', () => {
    expect(text).toMatch(/mcpspy \(JSON lines\) - cannot show: HTTP status, session id/);
    expect(text).toMatch(/otlp \(JSON lines\) - cannot show: HTTP status, bodies, typed ids/);
    expect(text).toMatch(/har \(JSON lines\) - full view/);
  });
});

describe('registry', () => {
  it('has unique names, every format of the issue, and the bare JSON-RPC format last', () => {
    const names = ALL_FORMATS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['har', 'mcpspy', 'mcpsnoop', 'otlp', 'kong', 'claude-desktop']) expect(formatByName(n), n).toBeDefined();
    expect(JSON_FORMATS[JSON_FORMATS.length - 1]!.name).toBe('jsonrpc');
    expect(TEXT_FORMATS.map((f) => f.name)).toEqual(['claude-code-debug', 'claude-desktop', 'vscode', 'go-sdk', 'haproxy-log', 'nginx-combined', 'nginx-error', 'apache-error', 'caddy-console', 'kitchen-observation-stream', 'server-console', 'dotnet-console', 'python-sdk', 'server-console']);
  });
});
