// readToolAnnotations: what retry safety and result checks need of each listed tool, the same however often a list repeats.
import { describe, expect, it } from 'vitest';
import { readToolAnnotations } from '../../src/findings/annotations.js';

const list = (tools: unknown[]) => JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }));
const tool = (name: string, annotations: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'] },
  ...(annotations ? { annotations } : {}),
  ...extra,
});

describe('readToolAnnotations', () => {
  it('reads each tool of a list the same whether the list was seen before or not', () => {
    const tools = [tool('refund', { destructiveHint: true }), tool('lookup', { readOnlyHint: true }), tool('put', { idempotentHint: true })];
    const first = readToolAnnotations(list(tools))!;
    const again = readToolAnnotations(list(tools))!;
    for (const m of [first, again]) {
      expect(m.get('refund')).toMatchObject({ readOnly: false, idempotent: false, annotated: true });
      expect(m.get('lookup')).toMatchObject({ readOnly: true, idempotent: false, annotated: true });
      expect(m.get('put')).toMatchObject({ readOnly: false, idempotent: true, annotated: true });
    }
    expect(again.get('lookup')!.inputSchema).toEqual(tools[1]!.inputSchema);
  });

  it('does not reuse the reading of a list that differs in one annotation, one schema value or one tool', () => {
    const base = [tool('refund', { destructiveHint: true }), tool('lookup', { readOnlyHint: true })];
    readToolAnnotations(list(base));
    const flipped = readToolAnnotations(list([tool('refund', { destructiveHint: true }), tool('lookup', { readOnlyHint: false })]))!;
    expect(flipped.get('lookup')!.readOnly).toBe(false);
    const unannotated = readToolAnnotations(list([tool('refund', { destructiveHint: true }), tool('lookup', undefined)]))!;
    expect(unannotated.get('lookup')!.annotated).toBe(false);
    const withOutput = readToolAnnotations(list([...base, tool('report', undefined, { outputSchema: { type: 'object', properties: { n: { type: 'integer' } } } })]))!;
    expect(withOutput.get('report')!.outputSchema).toBe(true);
    const otherMin = list([tool('refund', { destructiveHint: true }), tool('lookup', { readOnlyHint: true })]);
    otherMin.result.tools[1].inputSchema.properties.id.minLength = 2;
    expect((readToolAnnotations(otherMin)!.get('lookup')!.inputSchema as { properties: { id: { minLength: number } } }).properties.id.minLength).toBe(2);
    expect((readToolAnnotations(list(base))!.get('lookup')!.inputSchema as { properties: { id: { minLength: number } } }).properties.id.minLength).toBe(1);
  });

  it('tells apart lists whose strings differ only in the middle (same length and ends: the same hash)', () => {
    const pattern = (p: string) => ({ inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: p } } } });
    const a = readToolAnnotations(list([tool('lookup_a_order', { readOnlyHint: true }, pattern('^[a-z]+$'))]))!;
    const b = readToolAnnotations(list([tool('lookup_b_order', { readOnlyHint: true }, pattern('^[a-z]+$'))]))!;
    expect([...a.keys()]).toEqual(['lookup_a_order']);
    expect([...b.keys()]).toEqual(['lookup_b_order']);
    const c = readToolAnnotations(list([tool('lookup_b_order', { readOnlyHint: true }, pattern('^[a-y]+$'))]))!;
    expect((c.get('lookup_b_order')!.inputSchema as { properties: { id: { pattern: string } } }).properties.id.pattern).toBe('^[a-y]+$');
  });

  it('reads a list too large to compare cheaply, every time', () => {
    const big = Array.from({ length: 3000 }, (_, i) => tool(`t${i}`, { readOnlyHint: i % 2 === 0 }));
    expect(readToolAnnotations(list(big))!.size).toBe(3000);
    expect(readToolAnnotations(list(big))!.get('t2')!.readOnly).toBe(true);
    expect(readToolAnnotations(list(big))!.get('t3')!.readOnly).toBe(false);
  });

  it('lists no tools for a response without a tools array', () => {
    expect(readToolAnnotations({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(readToolAnnotations(undefined)).toBeUndefined();
  });
});
