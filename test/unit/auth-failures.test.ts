import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthFailures } from '../../src/http/auth-failures';

/** The failed-authentication budget per client address (src/http/auth-failures.ts), on a fake clock. */
describe('AuthFailures', () => {
  it('refuses an address once it has failed max times in the window, with the seconds left, and forgets it when the window ends', () => {
    let now = 1_000_000;
    const f = new AuthFailures(3, 60_000, 100, () => now);
    for (let i = 0; i < 3; i++) {
      assert.equal(f.exhausted('10.0.0.1'), null);
      f.failed('10.0.0.1');
    }
    assert.equal(f.exhausted('10.0.0.1'), 60);
    assert.equal(f.exhausted('10.0.0.2'), null, 'another address has its own budget');
    now += 45_500;
    assert.equal(f.exhausted('10.0.0.1'), 15);
    now += 14_500;
    assert.equal(f.exhausted('10.0.0.1'), null);
  });

  it('counts IPv6 addresses by their /64 and IPv4-mapped ones as IPv4', () => {
    const f = new AuthFailures(2);
    f.failed('2001:db8:1:2::1');
    f.failed('2001:db8:1:2:ffff::9');
    assert.notEqual(f.exhausted('2001:db8:1:2::abcd'), null);
    assert.equal(f.exhausted('2001:db8:1:3::1'), null);
    f.failed('::ffff:192.0.2.7');
    f.failed('192.0.2.7');
    assert.notEqual(f.exhausted('192.0.2.7'), null);
  });

  it('beyond maxAddresses the other addresses share one budget; 0 is no limit', () => {
    const f = new AuthFailures(1, 60_000, 2);
    f.failed('10.0.0.1');
    f.failed('10.0.0.2');
    assert.equal(f.exhausted('10.0.0.3'), null);
    f.failed('10.0.0.3');
    assert.notEqual(f.exhausted('10.0.0.4'), null, '10.0.0.4 shares the overflow budget 10.0.0.3 spent');
    const off = new AuthFailures(0);
    for (let i = 0; i < 100; i++) off.failed('10.0.0.1');
    assert.equal(off.exhausted('10.0.0.1'), null);
  });
});
