import type { CommandName } from './command-map';

/**
 * NATS subject names, versioned. Events live under social.v1.> (the JetStream
 * stream); commands under social.cmd.v1.> — a different root on purpose, so the
 * event stream never captures a command request.
 *
 * A namespace (config NATS_NAMESPACE, empty in production) prefixes every
 * subject and the stream name, so parallel test runs on one NATS server
 * cannot see each other.
 */
export class Subjects {
  constructor(private readonly namespace = '') {}

  private prefix(subject: string): string {
    return this.namespace ? `${this.namespace}.${subject}` : subject;
  }

  /** Root of every event subject; the JetStream stream covers `${eventRoot}.>`. */
  get eventRoot(): string {
    return this.prefix('social.v1');
  }

  get eventStreamName(): string {
    return this.namespace ? `SOCIAL_EVENTS_${this.namespace.replace(/[^A-Za-z0-9_-]/g, '_')}` : 'SOCIAL_EVENTS';
  }

  /** social.v1.<category>.<EventType>, category from the stream id prefix (post-… → posts). */
  event(streamId: string, type: string): string {
    return `${this.eventRoot}.${categoryOf(streamId)}.${type}`;
  }

  /** Core NATS (no stream): "events were appended", which wakes the feed followers (NatsAppendSignal). */
  get eventsAppended(): string {
    return this.prefix('social.signal.v1.events-appended');
  }

  command(name: CommandName): string {
    return this.prefix(`social.cmd.v1.${name}`);
  }

  /**
   * Several commands of one family (the name's part before the dot: posts, queues…) in one
   * message, answered by the app that serves that family. Its own root, so no command name
   * can ever collide with it.
   */
  commandBatch(family: string): string {
    return this.prefix(`social.cmd-batch.v1.${family}`);
  }
}

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  const category = dash > 0 ? streamId.slice(0, dash) : streamId;
  return `${category}s`;
}

export function postStreamId(postId: string): string {
  return `post-${postId}`;
}
