// Unit tests for src/formats/methods.ts: gateway and SDK method aliases, and which peer sends a method.
import { describe, expect, it } from 'vitest';
import { normalizeMethod, senderOfMethod } from '../../src/formats/methods.js';

describe('normalizeMethod', () => {
  it.each([
    ['call_tool', 'tools/call'],
    ['CallTool', 'tools/call'],
    ['tools.call', 'tools/call'],
    ['list_tools', 'tools/list'],
    ['ListTools', 'tools/list'],
    ['initialize', 'initialize'],
    ['read_resource', 'resources/read'],
    ['get_prompt', 'prompts/get'],
    ['list_resource_templates', 'resources/templates/list'],
  ])('%s -> %s', (alias, spec) => {
    expect(normalizeMethod(alias)).toBe(spec);
  });

  it('leaves spec names, custom methods and unknown names as sent', () => {
    expect(normalizeMethod('tools/call')).toBe('tools/call');
    expect(normalizeMethod('acme/reindex')).toBe('acme/reindex');
    expect(normalizeMethod('frobnicate')).toBe('frobnicate');
  });
});

describe('senderOfMethod', () => {
  it('knows server requests and notifications, client notifications, and says nothing for either-way methods', () => {
    expect(senderOfMethod('sampling/createMessage', false)).toBe('server');
    expect(senderOfMethod('tools/call', false)).toBe('client');
    expect(senderOfMethod('notifications/message', true)).toBe('server');
    expect(senderOfMethod('notifications/initialized', true)).toBe('client');
    expect(senderOfMethod('notifications/progress', true)).toBeUndefined();
    expect(senderOfMethod('ping', false)).toBeUndefined();
  });
});
