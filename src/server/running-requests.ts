/**
 * Cancels that reach the call they name, whichever server instance receives them.
 *
 * Over stateless HTTP the SDK builds a server instance per POST. A 2025-11-25 client cancels a
 * call by POSTing `notifications/cancelled`: that reaches a fresh instance, which runs nothing,
 * so the call went on fetching. Each instance's transport registers the requests it is
 * answering here (per person: request ids are only unique per client), and a cancel for one
 * of them is delivered to that instance's own inbound handler, where the SDK aborts the call as
 * it does on stdio. Two connections of one person that reuse a request id at the same moment
 * would share an entry; the later registration wins (clients number requests from 0, so this
 * is possible, and then the cancel reaches the newer of the two calls).
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

type Deliver = (message: JSONRPCMessage) => void;

export class RunningRequests {
  private readonly running = new Map<string, Deliver>();

  /** `deliver` receives a cancel of `id` of `owner` until `release` is called. */
  register(owner: string, id: RequestId, deliver: Deliver): void {
    this.running.set(key(owner, id), deliver);
  }

  release(owner: string, id: RequestId, deliver: Deliver): void {
    const k = key(owner, id);
    if (this.running.get(k) === deliver) this.running.delete(k);
  }

  /** Delivers the cancel `message` of request `id` to the instance running that call; false
   *  when none of this person's is. */
  routeCancel(owner: string, id: RequestId, message: JSONRPCMessage): boolean {
    const deliver = this.running.get(key(owner, id));
    if (!deliver) return false;
    deliver(message);
    return true;
  }

  get size(): number {
    return this.running.size;
  }
}

function key(owner: string, id: RequestId): string {
  return `${owner}\u0000${typeof id}:${id}`;
}
