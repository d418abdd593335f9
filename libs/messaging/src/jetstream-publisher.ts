import { headers as natsHeaders, JSONCodec, Msg, MsgHdrs, NatsConnection, PubAck } from 'nats';
import { ReplyInbox } from './reply-inbox';

/**
 * What a stream answers a publish with (https://docs.nats.io/reference/jetstream/api/stream/pub-ack.md):
 * where it stored the message (or that it was a duplicate), or why it did not take it.
 */
interface PubAckAnswer {
  stream?: string;
  seq?: number;
  duplicate?: boolean;
  domain?: string;
  error?: { code: number; err_code?: number; description: string };
}

const codec = JSONCodec<PubAckAnswer>();

export interface JetStreamPublishOptions {
  /** Nats-Msg-Id: the stream drops a repeat of this id inside its duplicate window. */
  msgID: string;
  /** Nats-Expected-Last-Msg-Id: the stream refuses the message unless its last message has this id. */
  expectLastMsgID?: string;
  headers?: MsgHdrs;
}

/**
 * JetStream publishes and their acknowledgements, as nats.js's `js.publish` makes them (the
 * headers of https://docs.nats.io/nats-concepts/jetstream/headers, a PubAck or the stream's
 * error in answer), with the answers taken on one ReplyInbox. nats.js makes each publish a request
 * of its own, whose cancellation once answered builds an Error (a captured stack): a tenth of the
 * projector's CPU at the top of the hour, where it relays four events a publication (issue 22).
 */
export class JetStreamPublisher {
  private readonly inbox: ReplyInbox;

  constructor(
    private readonly nc: NatsConnection,
    timeoutMs: number,
  ) {
    this.inbox = new ReplyInbox(nc, timeoutMs);
  }

  /** Resolves with the stream's acknowledgement; rejects with its refusal, when no stream takes the subject, or after the timeout. */
  publish(subject: string, data: Uint8Array, options: JetStreamPublishOptions): Promise<PubAck> {
    const headers = options.headers ?? natsHeaders();
    headers.set('Nats-Msg-Id', options.msgID);
    if (options.expectLastMsgID) headers.set('Nats-Expected-Last-Msg-Id', options.expectLastMsgID);
    return new Promise<PubAck>((resolve, reject) => {
      const reply = this.inbox.open({
        answer: (msg) => {
          try {
            resolve(pubAckOf(msg));
          } catch (error) {
            reject(error);
          }
          return true;
        },
        lost: (why) => reject(new Error(why === 'no_responders' ? `no stream takes ${subject} (no responders)` : `no acknowledgement for ${subject} in time`)),
      });
      // A connection that cannot send (closed) throws here; its waiter is given up at its deadline.
      this.nc.publish(subject, data, { reply, headers });
    });
  }
}

/** The acknowledgement in a stream's answer; throws the stream's refusal. */
function pubAckOf(msg: Msg): PubAck {
  const answer = codec.decode(msg.data);
  if (answer.error) throw new Error(`the stream refused the message: ${answer.error.description} (${answer.error.code}${answer.error.err_code ? `/${answer.error.err_code}` : ''})`);
  if (!answer.stream || answer.seq === undefined) throw new Error('the stream answered without an acknowledgement');
  return { stream: answer.stream, seq: answer.seq, duplicate: answer.duplicate ?? false, ...(answer.domain ? { domain: answer.domain } : {}) };
}
