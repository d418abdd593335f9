import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { TestStack } from '../../../test/support/test-stack';
import { PROJECTOR_MIN_POOL_SIZE } from './projector.module';
import { READ_MODELS } from './read-models';

/**
 * Each feed follower's batch may hold one connection and ask for a second (a stream read in revision
 * order): a projector run with fewer than two per follower waited for ever once every follower held one
 * (seen with DATABASE_POOL_SIZE=3 and four read models). Its pool never goes below that floor; the
 * other apps keep the size they are given.
 */
describe('the projector pool', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['projector', 'posts'], overrides: { databasePoolSize: 3 } });
  });
  afterAll(() => stack.stop());

  it('is two connections per feed follower at the least, whatever DATABASE_POOL_SIZE says', () => {
    expect(PROJECTOR_MIN_POOL_SIZE).toBeGreaterThanOrEqual(2 * (READ_MODELS.length + 1));
    expect(stack.app('projector').get<Pool>(PG_POOL).options.max).toBe(PROJECTOR_MIN_POOL_SIZE);
    expect(stack.app('posts').get<Pool>(PG_POOL).options.max).toBe(3);
  });
});
