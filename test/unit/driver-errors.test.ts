import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { AppError, ErrorCode } from '../../src/errors';
import { translateDriverError } from '../../src/graph/executor';

const driverError = (code: string) => new neo4j.Neo4jError(`a ${code}`, code, '50N42', 'error: general processing exception');

describe('translateDriverError', () => {
  it('turns retryable and connection errors into UNAVAILABLE', () => {
    for (const code of ['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.Transaction.DeadlockDetected']) {
      const out = translateDriverError(driverError(code));
      assert.ok(out instanceof AppError, code);
      assert.equal(out.code, ErrorCode.UNAVAILABLE, code);
    }
  });

  it('passes a client error through unchanged, with its Neo4j code (it is logged and masked later)', () => {
    const err = driverError('Neo.ClientError.Statement.SyntaxError');
    assert.equal(translateDriverError(err), err);
  });

  it('a transaction over the memory pool is LIMIT_EXCEEDED naming the heap setting; a transient error keeps its code in the message', () => {
    const full = translateDriverError(driverError('Neo.TransientError.General.MemoryPoolOutOfMemoryError'));
    assert.ok(full instanceof AppError);
    assert.equal(full.code, ErrorCode.LIMIT_EXCEEDED);
    assert.match(full.message, /TRIBUTARY_NEO4J_HEAP/);
    const transient = translateDriverError(driverError('Neo.TransientError.General.DatabaseUnavailable'));
    assert.ok(transient instanceof AppError);
    assert.equal(transient.code, ErrorCode.UNAVAILABLE);
    assert.match(transient.message, /\(Neo\.TransientError\.General\.DatabaseUnavailable\)/);
  });
});
