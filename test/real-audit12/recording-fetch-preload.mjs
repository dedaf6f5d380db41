// Loaded with `node --import` into mcporter's CLI by test/real-audit12/record.mjs: the global fetch (which the SDK transport inside calls) becomes recordingFetch, writing to $AUDIT12_CLIENT_OUT.
const out = process.env.AUDIT12_CLIENT_OUT;
if (out) {
  const { recordingFetch } = await import(new URL('../../dist/capture/index.js', import.meta.url).href);
  globalThis.fetch = recordingFetch({ out, fetch: globalThis.fetch });
}
