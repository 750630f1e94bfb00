import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode, httpStatuses, limitExceeded, unsupportedMediaType } from '../../src/errors';

describe('AppError', () => {
  it('answers with the default status of its code unless it names one of the alternatives the table allows', () => {
    assert.equal(new AppError(ErrorCode.BAD_INPUT, 'x').status, 400);
    assert.equal(unsupportedMediaType('not JSON').status, 415);
    assert.equal(unsupportedMediaType('not JSON').code, ErrorCode.BAD_INPUT);
    assert.equal(limitExceeded('body too large').status, 413);
    assert.equal(limitExceeded('query cost', 400).status, 400);
    assert.throws(() => new AppError(ErrorCode.NOT_FOUND, 'x', [], 410), /HTTP 410 is not a status of NOT_FOUND/);
    for (const code of Object.values(ErrorCode)) assert.ok(httpStatuses[code].length > 0, code);
  });
});
