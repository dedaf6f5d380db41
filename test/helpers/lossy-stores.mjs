// The fourteenth audit's event stores for the SDK 1.32.2 server (test/real-audit14, test/real-audit14-py): the SDK's InMemoryEventStore, and stores built on it that lose events while the session lives.
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const { InMemoryEventStore } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/shared/inMemoryEventStore.js`);

/** The SDK's store keeping only the session's newest `keep` events; `knowsIds`: it has getStreamIdForEventId (undefined once evicted). */
export class BoundedStore extends InMemoryEventStore {
  constructor(keep, knowsIds) {
    super();
    this.keep = keep;
    if (knowsIds) this.getStreamIdForEventId = async (id) => this.events.get(id)?.streamId;
  }
  async storeEvent(streamId, message) {
    const id = await super.storeEvent(streamId, message);
    while (this.events.size > this.keep) this.events.delete(this.events.keys().next().value);
    return id;
  }
}
/** The SDK's store whose backend is gone when a resumption asks it to replay. */
export class FailingStore extends InMemoryEventStore {
  async replayEventsAfter() { throw new Error('event store unavailable'); }
}
/** The SDK's store that forgets a stream's events once its answer is stored (as if answered streams needed no replay). */
export class DropAnsweredStore extends InMemoryEventStore {
  async storeEvent(streamId, message) {
    const id = await super.storeEvent(streamId, message);
    if (message && 'id' in message && ('result' in message || 'error' in message)) for (const [k, e] of this.events) if (e.streamId === streamId) this.events.delete(k);
    return id;
  }
}
/** A new store of each kind, by the scenarios' names. */
export const stores = {
  memory: () => new InMemoryEventStore(),
  evicted: () => new BoundedStore(3, false),
  'evicted-400': () => new BoundedStore(3, true),
  'replay-throws': () => new FailingStore(),
  'answer-dropped': () => new DropAnsweredStore(),
};
