// Unit tests for src/formats/python-text.ts: pydantic's text of a model (str() and repr()) read as its fields, and as a JSON-RPC message.
import { describe, expect, it } from 'vitest';
import { parsePydanticText, pydanticMessage } from '../../src/formats/python-text.js';

describe('parsePydanticText', () => {
  it("reads a str()'s fields, whose values are Python literals or nested models' reprs", () => {
    expect(parsePydanticText("jsonrpc='2.0' id=6 error=ErrorData(code=0, message='Unknown prompt: missing', data=None)")).toEqual({ jsonrpc: '2.0', id: 6, error: { code: 0, message: 'Unknown prompt: missing', data: null } });
    expect(parsePydanticText("a=1 b=[1, (2, 3)] c={'d': \"it's\\n\"} e=X()")).toEqual({ a: 1, b: [1, [2, 3]], c: { d: "it's\n" }, e: {} });
  });

  it("reads a whole repr, and a RootModel's str() (root=...)", () => {
    expect(parsePydanticText("JSONRPCRequest(method='ping', params=None, jsonrpc='2.0', id=1)")).toEqual({ method: 'ping', params: null, jsonrpc: '2.0', id: 1 });
    expect(parsePydanticText("root=JSONRPCRequest(method='ping', jsonrpc='2.0', id=1)")).toEqual({ root: { method: 'ping', jsonrpc: '2.0', id: 1 } });
  });

  it('is undefined for anything else: a cut text, an object without fields, words, text after the fields', () => {
    for (const bad of ["jsonrpc='2.0' id=3 params={'a': ", "result=<object at 0x7f>", 'hello world', "a=1  b=2", "a=1 trailing", "{'a': 1}", "X(a=1", "a='x"]) {
      expect(parsePydanticText(bad), bad).toBeUndefined();
    }
    expect(Object.getPrototypeOf(parsePydanticText('__proto__=1 a=2'))).toBe(Object.prototype);
  });
});

describe('pydanticMessage', () => {
  it("is the JSON-RPC message, None fields left out as the wire leaves them out", () => {
    expect(pydanticMessage("jsonrpc='2.0' method='notifications/initialized' params=None")).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(pydanticMessage("root=JSONRPCError(jsonrpc='2.0', id=4, error=ErrorData(code=-32602, message='bad', data=None))")).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } });
    expect(pydanticMessage("jsonrpc='2.0' id=3 result={'content': [], 'isError': True}")).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [], isError: true } });
  });

  it('is undefined for a model that is no JSON-RPC message', () => {
    expect(pydanticMessage("meta=None content=[TextContent(type='text', text='x')] is_error=True")).toBeUndefined();
    expect(pydanticMessage("jsonrpc='1.0' id=1 method='x'")).toBeUndefined();
    expect(pydanticMessage("jsonrpc='2.0' id=1")).toBeUndefined();
  });
});
