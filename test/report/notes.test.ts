// Unit tests for src/report/notes.ts: the why cell puts the error as sent, then what the classifier found, apart.
import { describe, expect, it } from 'vitest';
import { whyOf } from '../../src/report/notes.js';
import type { AttemptRow } from '../../src/report/summary.js';

const row = (detail: AttemptRow['detail'], notSeenByServer = false) => ({ detail, notSeenByServer }) as unknown as AttemptRow;

describe('whyOf', () => {
  it('separates the error from what the classifier found about it', () => {
    expect(whyOf(row({ errorCode: -32603, errorMessage: 'sampling refused by the user', why: "the client answered the server's sampling/createMessage (id 3) with an error: -32603 sampling refused by the user" })))
      .toBe("-32603 sampling refused by the user; the client answered the server's sampling/createMessage (id 3) with an error: -32603 sampling refused by the user");
  });

  it('gives either part alone as it is', () => {
    expect(whyOf(row({ errorCode: -32602, errorMessage: 'Invalid params: query must be a string' }))).toBe('-32602 Invalid params: query must be a string');
    expect(whyOf(row({ why: 'no response in the log' }))).toBe('no response in the log');
    expect(whyOf(row(undefined))).toBe('');
  });

  it('says first when the server never saw the request', () => {
    expect(whyOf(row({ errorCode: -32000, errorMessage: 'Server busy' }, true))).toBe('not seen by the server: -32000 Server busy');
    expect(whyOf(row(undefined, true))).toBe('not seen by the server');
  });
});

describe('whyOf: the error code said once', () => {
  it('leaves the code out when the message already says it (an SDK message "MCP error -32602: ...")', () => {
    expect(whyOf(row({ errorCode: -32602, errorMessage: 'MCP error -32602: Invalid params: orderId must look like A-123' })))
      .toBe('MCP error -32602: Invalid params: orderId must look like A-123');
    expect(whyOf(row({ errorCode: -32000, why: 'claude-code logged: MCP error -32000: Connection closed' }))).toBe('claude-code logged: MCP error -32000: Connection closed');
  });
  it('keeps it when the message does not, or names another number', () => {
    expect(whyOf(row({ errorCode: -32602, errorMessage: 'Invalid params: -326020 is out of range' }))).toBe('-32602 Invalid params: -326020 is out of range');
    expect(whyOf(row({ errorCode: 32602, errorMessage: 'code -32602 elsewhere' }))).toBe('32602 code -32602 elsewhere');
    expect(whyOf(row({ errorCode: -32000 }))).toBe('-32000');
  });
});
